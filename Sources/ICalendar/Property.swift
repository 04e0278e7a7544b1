/// One content line: `NAME;PARAM=value,"quoted value":value` (RFC 5545 §3.1).
///
/// The value is kept as it came on the wire (still escaped), so a property reminderd does not
/// understand goes back out byte for byte; `text` reads and writes it as TEXT.
public struct Property: Hashable, Sendable {
    /// Upper-cased: names are case-insensitive, and every writer sends them upper-case.
    public var name: String
    public var parameters: [Parameter]
    public var value: String

    public init(_ name: String, _ value: String, parameters: [Parameter] = []) {
        self.name = name.uppercased()
        self.value = value
        self.parameters = parameters
    }

    /// The value read as TEXT (escapes undone).
    public var text: String {
        get { TextValue.unescape(value) }
        set { value = TextValue.escape(newValue) }
    }

    /// The first value of the parameter `name`, if present.
    public func parameter(_ name: String) -> String? {
        let upper = name.uppercased()
        return parameters.first { $0.name == upper }?.values.first
    }

    /// Sets the parameter `name` to one value where it stands, or appends it; nil removes it.
    public mutating func setParameter(_ name: String, _ value: String?) {
        let upper = name.uppercased()
        guard let value else {
            parameters.removeAll { $0.name == upper }
            return
        }
        if let index = parameters.firstIndex(where: { $0.name == upper }) {
            parameters[index].values = [value]
        } else {
            parameters.append(Parameter(upper, [value]))
        }
    }

    /// The content line, unfolded.
    public var line: String {
        var line = name
        for parameter in parameters { line += ";" + parameter.text }
        return line + ":" + value
    }

    /// Reads one unfolded content line; `number` is only for the error.
    public init(line: String, number: Int) throws(ICalendarError) {
        var scanner = Substring(line)
        let name = scanner.prefix(while: Property.isNameCharacter)
        guard !name.isEmpty else {
            throw ICalendarError(line: number, "expected a property name (letters, digits, '-') at the start")
        }
        scanner = scanner.dropFirst(name.count)
        var parameters: [Parameter] = []
        while scanner.first == ";" {
            scanner = scanner.dropFirst()
            parameters.append(try Parameter.read(&scanner, property: String(name), line: number))
        }
        guard scanner.first == ":" else {
            throw ICalendarError(line: number, "property \(name): expected ':' before the value")
        }
        self.init(String(name), String(scanner.dropFirst()), parameters: parameters)
    }

    static func isNameCharacter(_ character: Character) -> Bool {
        character == "-" || (character.isASCII && (character.isLetter || character.isNumber))
    }
}

/// A property parameter with one or more values (`MEMBER="a","b"`).
public struct Parameter: Hashable, Sendable {
    public var name: String
    public var values: [String]

    public init(_ name: String, _ values: [String]) {
        self.name = name.uppercased()
        self.values = values
    }

    /// `NAME=v1,"v:2"`: a value holding `:`, `;` or `,` is quoted (RFC 5545 allows no `"` in a
    /// parameter value, so one is dropped rather than sent broken).
    var text: String {
        let quoted = values.map { value -> String in
            let clean = value.filter { $0 != "\"" }
            return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(clean)\"" : clean
        }
        return name + "=" + quoted.joined(separator: ",")
    }

    /// Reads `NAME=value[,value…]` from the front of `scanner`, leaving it at the `;` or `:` after.
    static func read(_ scanner: inout Substring, property: String, line: Int) throws(ICalendarError) -> Parameter {
        let name = scanner.prefix(while: Property.isNameCharacter)
        guard !name.isEmpty else {
            throw ICalendarError(line: line, "property \(property): expected a parameter name after ';'")
        }
        scanner = scanner.dropFirst(name.count)
        guard scanner.first == "=" else {
            throw ICalendarError(line: line, "property \(property): parameter \(name) has no '=value'")
        }
        var values: [String] = []
        repeat {
            scanner = scanner.dropFirst()  // '=' or ','
            if scanner.first == "\"" {
                let body = scanner.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw ICalendarError(line: line, "property \(property): parameter \(name) has an unclosed quote")
                }
                values.append(String(body[..<close]))
                scanner = body[body.index(after: close)...]
            } else {
                let value = scanner.prefix { $0 != ";" && $0 != ":" && $0 != "," && $0 != "\"" }
                values.append(String(value))
                scanner = scanner.dropFirst(value.count)
            }
        } while scanner.first == ","
        guard scanner.first == ";" || scanner.first == ":" else {
            throw ICalendarError(line: line, "property \(property): unexpected character after parameter \(name)")
        }
        return Parameter(String(name), values)
    }
}
