extension Component {
    /// Nesting deeper than this is refused: real calendars nest three deep (VCALENDAR, VTODO,
    /// VALARM), and a bound keeps hostile input from costing unbounded stack or time.
    public static let maximumDepth = 16

    /// Reads `bytes` as exactly one top-level component (a VCALENDAR, as a CalDAV resource is).
    public static func parse(_ bytes: [UInt8]) throws(ICalendarError) -> Component {
        let roots = try parseAll(bytes)
        guard let root = roots.first else { throw ICalendarError(line: 1, "no BEGIN line: the text is empty") }
        guard roots.count == 1 else {
            throw ICalendarError(line: 1, "\(roots.count) top-level components; expected one")
        }
        return root
    }

    public static func parse(_ text: String) throws(ICalendarError) -> Component { try parse(Array(text.utf8)) }

    /// Every top-level component in `bytes`, in order.
    public static func parseAll(_ bytes: [UInt8]) throws(ICalendarError) -> [Component] {
        var roots: [Component] = []
        var stack: [(component: Component, line: Int)] = []
        var lastLine = 0
        for line in try LineFolding.unfold(bytes) {
            lastLine = line.number
            let property = try Property(line: line.text, number: line.number)
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard !name.isEmpty, name.allSatisfy(Property.isNameCharacter) else {
                    throw ICalendarError(line: line.number, "BEGIN needs a component name, like BEGIN:VTODO")
                }
                guard stack.count < maximumDepth else {
                    throw ICalendarError(line: line.number, "components nested more than \(maximumDepth) deep")
                }
                stack.append((Component(name), line.number))
            case "END":
                guard let open = stack.popLast() else {
                    throw ICalendarError(line: line.number, "END:\(property.value) without a BEGIN")
                }
                guard property.value.uppercased() == open.component.name else {
                    throw ICalendarError(
                        line: line.number,
                        "END:\(property.value) closes BEGIN:\(open.component.name) of line \(open.line)")
                }
                if stack.isEmpty {
                    roots.append(open.component)
                } else {
                    stack[stack.count - 1].component.components.append(open.component)
                }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(line: line.number, "property \(property.name) outside any BEGIN/END")
                }
                stack[stack.count - 1].component.properties.append(property)
            }
        }
        if let open = stack.last {
            throw ICalendarError(
                line: lastLine, "BEGIN:\(open.component.name) of line \(open.line) is never closed (text cut short?)")
        }
        return roots
    }
}
