extension JSONValue {
    /// The document as UTF-8 JSON with keys sorted — compact, or indented by two spaces per
    /// level — hand-written for the same reason as `parse`. Strings escape only what JSON
    /// requires (`"`, `\`, control characters); `/` and non-ASCII text are written as they are.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// Appends the compact document to `out`: a reply of megabytes is written once, in place,
    /// into its connection's write buffer, not built in an array of its own and copied.
    public func serialize(into out: inout [UInt8]) {
        write(to: &out, pretty: false, indent: 0)
    }

    /// `serialized` as a String.
    public func text(pretty: Bool = false) -> String { String(decoding: serialized(pretty: pretty), as: UTF8.self) }

    private func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .integer(let number): out += Array(String(number).utf8)
        case .number(let number): out += Array("\(number)".utf8)  // "0.1", "1e+20": JSON as written
        case .string(let text): JSONValue.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, pretty: pretty, indent: indent + 1)
                element.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !elements.isEmpty { JSONValue.newline(&out, pretty: pretty, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, pretty: pretty, indent: indent + 1)
                JSONValue.writeString(member.key, to: &out)
                if pretty { out += Array(" : ".utf8) } else { out.append(UInt8(ascii: ":")) }
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !members.isEmpty { JSONValue.newline(&out, pretty: pretty, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        out.append(0x0A)
        out += [UInt8](repeating: 0x20, count: indent * 2)
    }

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
