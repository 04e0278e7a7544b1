import ICalendar
import Testing

@Suite struct ContentLineTests {
    @Test func unfoldsCRLFAndBareLFContinuations() throws {
        let text = "BEGIN:VTODO\r\nSUMMARY:Uber \r\n Cash\nDESCRIPTION:a\n\tb\r\nEND:VTODO\r\n"
        let todo = try Component.parse(text)
        #expect(todo.property("SUMMARY")?.text == "Uber Cash")
        #expect(todo.property("DESCRIPTION")?.text == "ab")
    }

    @Test func foldsAt75OctetsWithoutSplittingUTF8() throws {
        let summary = String(repeating: "é", count: 50) + "👍🏽" + String(repeating: "x", count: 40)
        let todo = Component("VTODO", properties: [Property("SUMMARY", summary)])
        let text = todo.serialized()
        for line in text.split(separator: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line)")
            #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil)
        }
        #expect(try Component.parse(text).property("SUMMARY")?.value == summary)
    }

    @Test func foldsInsideAGraphemeClusterLongerThanALine() throws {
        // One Character of 121 octets: a letter with 60 combining acute accents.
        let summary = "e" + String(repeating: "\u{301}", count: 60)
        let text = Component("VTODO", properties: [Property("SUMMARY", summary)]).serialized()
        for line in text.split(separator: "\r\n") { #expect(line.utf8.count <= 75, "\(line.utf8.count) octets") }
        #expect(try Component.parse(text).property("SUMMARY")?.value == summary)
    }

    @Test func readsQuotedAndMultipleParameterValues() throws {
        let property = try Property(
            line: #"ATTENDEE;MEMBER="mailto:a@x.org","mailto:b@x.org";X-Y=p1,p2;CN="Doe; Jane":mailto:j@x.org"#,
            number: 3)
        #expect(property.parameters.map(\.name) == ["MEMBER", "X-Y", "CN"])
        #expect(property.parameters[0].values == ["mailto:a@x.org", "mailto:b@x.org"])
        #expect(property.parameters[1].values == ["p1", "p2"])
        #expect(property.parameter("cn") == "Doe; Jane")
        #expect(property.value == "mailto:j@x.org")
        #expect(try Property(line: property.line, number: 1) == property)
    }

    @Test func valueMayHoldColonsAndSemicolons() throws {
        let property = try Property(line: "X-URL;VALUE=URI:http://a.org/x;y=1", number: 1)
        #expect(property.value == "http://a.org/x;y=1")
    }

    @Test func escapesAndUnescapesText() {
        let text = "a, b; c\\d\nnext"
        #expect(TextValue.escape(text) == #"a\, b\; c\\d\nnext"#)
        #expect(TextValue.unescape(TextValue.escape(text)) == text)
        #expect(TextValue.unescape(#"x\Ny\:z\"#) == "x\ny:z\\")
    }

    @Test(arguments: [
        ("SUMMARY", 1, "expected ':' before the value"),
        (";X=1:a", 1, "expected a property name"),
        ("X;=1:a", 1, "expected a parameter name"),
        ("X;P:a", 1, "has no '=value'"),
        ("X;P=\"abc:a", 1, "unclosed quote"),
        ("X;P=\"a\"b:v", 1, "unexpected character after parameter P"),
    ])
    func namesTheLineAndTheFault(line: String, number: Int, reason: String) {
        #expect {
            _ = try Property(line: line, number: number)
        } throws: { error in
            guard let error = error as? ICalendarError else { return false }
            return error.line == number && error.reason.contains(reason)
        }
    }
}
