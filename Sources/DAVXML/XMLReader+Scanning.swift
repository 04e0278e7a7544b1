/// The byte-level scanning under `XMLReader`: the character check made once over the whole
/// document, XML's name characters, the cursor's moves and look-aheads, and the errors that
/// name a line and a byte offset.
extension XMLReader {
    /// The whole document is UTF-8 of characters XML allows (no NUL or other C0 controls but tab,
    /// LF and CR), checked once so the rest can work on bytes.
    func checkCharacters() throws(XMLSyntaxError) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let code = Unicode.UTF8.decode(encoded).value
                guard Self.isXMLCharacter(code) else {
                    let hex = String(code, radix: 16, uppercase: true)
                    throw malformed(
                        "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex), a character XML does not allow",
                        at: offset)
                }
                offset += encoded.count
            case .error:
                throw malformed("bytes that are not UTF-8", at: offset)
            case .emptyInput:
                return
            }
        }
    }

    static func isXMLCharacter(_ code: UInt32) -> Bool {
        switch code {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    static func startsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...:
            return true
        default: return false
        }
    }

    static func continuesName(_ byte: UInt8) -> Bool {
        startsName(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = at
        while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
        return at > start
    }

    func starts(with prefix: String) -> Bool { starts(with: Array(prefix.utf8)) }

    func starts(with prefix: [UInt8]) -> Bool {
        bytes.count - at >= prefix.count && bytes[at..<(at + prefix.count)].elementsEqual(prefix)
    }

    /// Where `pattern` next starts, from the current position.
    func find(_ pattern: String) -> Int? {
        let pattern = Array(pattern.utf8)
        var index = at
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }

    func text(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }

    func line(at offset: Int) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The last byte that is not white space: where a cut-off document was cut.
    var lastContentByte: Int { bytes.lastIndex { !Self.isSpace($0) } ?? 0 }

    func malformed(_ what: String, at offset: Int? = nil) -> XMLSyntaxError {
        let offset = offset ?? at
        return XMLSyntaxError(line: line(at: offset), detail: "not well-formed XML at byte offset \(offset): \(what)")
    }

    func refusedDoctype() -> XMLSyntaxError {
        XMLSyntaxError(
            line: line(at: at),
            detail: "a DOCTYPE at byte offset \(at) is refused (entities are never declared or expanded)")
    }

    /// The input ended with elements open (a cut-off answer), or inside a comment or instruction.
    func endsBefore(inside construct: String? = nil) -> XMLSyntaxError {
        let detail =
            !open.isEmpty || construct == nil
            ? "the document ends before its elements are closed" : "the document ends inside \(construct!)"
        return XMLSyntaxError(line: line(at: lastContentByte), detail: detail)
    }
}
