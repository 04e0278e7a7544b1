import ICalendar
import Testing

@Suite struct ComponentTests {
    static let foreign = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp//Phone 1.0//EN\r
        X-WR-CALNAME:Reminders\r
        BEGIN:VTODO\r
        UID:abc@example.org\r
        X-APPLE-SORT-ORDER:12\r
        SUMMARY;LANGUAGE=en:Buy milk\\, eggs\r
        X-CUSTOM;X-PARAM="a:b",c:v1\r
        BEGIN:VALARM\r
        UID:alarm-1\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=END:-P1DT14H59M\r
        ACKNOWLEDGED:20261124T140000Z\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func roundTripKeepsEveryPropertyAndItsOrder() throws {
        let calendar = try Component.parse(Self.foreign)
        #expect(calendar.serialized() == Self.foreign)
        #expect(try Component.parse(calendar.serialized()) == calendar)
    }

    @Test func editingInPlaceKeepsTheRest() throws {
        var calendar = try Component.parse(Self.foreign)
        var todo = calendar.components[0]
        todo.set("SUMMARY", "Buy bread")
        todo.set("SEQUENCE", "1")
        calendar.components[0] = todo
        let lines = calendar.serialized().split(separator: "\r\n")
        #expect(lines.contains("SUMMARY;LANGUAGE=en:Buy bread"))
        #expect(lines.firstIndex(of: "X-APPLE-SORT-ORDER:12")! < lines.firstIndex(of: "SUMMARY;LANGUAGE=en:Buy bread")!)
        #expect(lines.contains(#"X-CUSTOM;X-PARAM="a:b",c:v1"#))
        #expect(lines.contains("UID:alarm-1") && lines.contains("ACKNOWLEDGED:20261124T140000Z"))
        #expect(lines[lines.firstIndex(of: "BEGIN:VALARM")! - 1] == "SEQUENCE:1")
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n", 3, "END:VCALENDAR closes BEGIN:VTODO of line 2"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n", 3, "BEGIN:VTODO of line 2 is never closed"),
        ("UID:x\r\n", 1, "outside any BEGIN/END"),
        ("END:VTODO\r\n", 1, "without a BEGIN"),
        ("BEGIN:\r\n", 1, "BEGIN needs a component name"),
        ("", 1, "the text is empty"),
        ("BEGIN:A\r\nEND:A\r\nBEGIN:B\r\nEND:B\r\n", 1, "2 top-level components"),
        ("BEGIN:VCALENDAR\r\nX:\u{FF}\r\n", 2, "not valid UTF-8"),
    ])
    func badInputNamesLineAndFault(text: String, line: Int, reason: String) {
        var bytes = Array(text.utf8)
        if text.contains("\u{FF}") { bytes = Array("BEGIN:VCALENDAR\r\nX:".utf8) + [0xFF] + Array("\r\n".utf8) }
        #expect {
            _ = try Component.parse(bytes)
        } throws: { error in
            guard let error = error as? ICalendarError else { return false }
            return error.line == line && error.reason.contains(reason)
        }
    }

    @Test func refusesDeepNesting() {
        let text = String(repeating: "BEGIN:X\r\n", count: 40) + String(repeating: "END:X\r\n", count: 40)
        #expect(throws: ICalendarError.self) { try Component.parse(text) }
    }

    @Test func setReplacesTheFirstAndDropsDuplicates() {
        var todo = Component(
            "VTODO", properties: [Property("A", "1"), Property("X", "1"), Property("B", "2"), Property("X", "2")])
        todo.set("X", "3")
        #expect(todo.properties.map(\.line) == ["A:1", "X:3", "B:2"])
    }
}
