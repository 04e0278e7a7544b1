extension JSONValue {
    /// Parses a JSON document (RFC 8259; a top-level scalar too); `source` names it in the error
    /// ("items.json: not valid JSON (…)").
    ///
    /// Hand-written rather than `JSONDecoder`: the daemon reads every stored item at start and
    /// every request through this, and decoding into an enum through `Decodable` cost ~50 µs
    /// per item. Nesting deeper than `maximumDepth` is refused instead of exhausting the stack.
    public static func parse(_ bytes: [UInt8], source: String) throws(FieldError) -> JSONValue {
        var reader = JSONReader(bytes)
        do throws(JSONSyntaxError) {
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.at == bytes.count else { throw reader.failure("unexpected text after the document") }
            return value
        } catch {
            throw .invalidValue(field: source, reason: "not valid JSON (\(error.reason))")
        }
    }

    /// How deep arrays and objects may nest.
    public static let maximumDepth = 512
}

/// Why a document is not JSON, with the byte offset.
struct JSONSyntaxError: Error {
    let reason: String
}

/// A cursor over UTF-8 bytes, one JSON value at a time.
struct JSONReader {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// What is wrong and where: the byte, and the line and column an editor shows.
    func failure(_ what: String) -> JSONSyntaxError {
        let place = LineAndColumn(of: at, in: bytes)
        return JSONSyntaxError(reason: "\(what) at byte \(at) (line \(place.line), column \(place.column))")
    }

    mutating func skipWhitespace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard at < bytes.count else { throw failure("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count,
            word.withUTF8Buffer({ $0.elementsEqual(bytes[at..<at + count]) })
        else { throw failure("unexpected character") }
        at += count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        guard try enter(depth: depth, closer: UInt8(ascii: "}")) else { return .object(members) }
        repeat {
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            at += 1
            skipWhitespace()
            guard members[key] == nil else { throw failure("duplicate member \"\(key)\"") }
            members[key] = try value(depth: depth)
        } while try !closes(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        guard try enter(depth: depth, closer: UInt8(ascii: "]")) else { return .array(elements) }
        repeat {
            skipWhitespace()
            elements.append(try value(depth: depth))
        } while try !closes(UInt8(ascii: "]"))
        return .array(elements)
    }

    /// Steps past a container's opening bracket; false when the container is empty (and its
    /// closing bracket is stepped past too).
    private mutating func enter(depth: Int, closer: UInt8) throws(JSONSyntaxError) -> Bool {
        guard depth <= JSONValue.maximumDepth else { throw failure("nested too deeply") }
        at += 1
        skipWhitespace()
        guard at < bytes.count, bytes[at] == closer else { return true }
        at += 1
        return false
    }

    /// After a member or an element: true at the closing bracket, false at a comma (either is
    /// stepped past).
    private mutating func closes(_ closer: UInt8) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard at < bytes.count else { throw failure("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: ","):
            at += 1
            return false
        case closer:
            at += 1
            return true
        default: throw failure("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
        }
    }

    /// A string literal: escapes decoded, the UTF-8 validated, control characters refused.
    private mutating func string() throws(JSONSyntaxError) -> String {
        at += 1
        // Most strings are plain ASCII without escapes: one scan, no copy.
        var end = at
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\""),
            bytes[end] != UInt8(ascii: "\\")
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { at = end + 1 }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
        var utf8: [UInt8] = []
        var start = at
        while true {
            guard at < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                at += 1
                continue
            }
            utf8.append(contentsOf: bytes[start..<at])
            at += 1
            guard at < bytes.count else { throw failure("unterminated string") }
            let escaped = bytes[at]
            at += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
            default:
                at -= 1
                throw failure("invalid escape")
            }
            start = at
        }
        utf8.append(contentsOf: bytes[start..<at])
        at += 1
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw failure("invalid UTF-8 in the string ending")
        }
        return text
    }

    /// The UTF-8 of a `\u` escape and its four hex digits (read after the `u`); a surrogate pair
    /// takes two escapes.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw failure("unpaired surrogate")
            }
            at += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw failure("unpaired surrogate")
        }
        return Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    /// A number: an integer when its value is a whole number that fits 64 bits (`30`, `30.0`,
    /// `3e1` — worked out exactly from the digits, as `JSONDecoder` does), else a finite double.
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = at
        let negative = bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
        var digits: [UInt8] = []
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else {
            while at < bytes.count, isDigit(bytes[at]) {
                digits.append(bytes[at])
                at += 1
            }
        }
        var exponent = 0
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
            while at < bytes.count, isDigit(bytes[at]) {
                digits.append(bytes[at])
                exponent -= 1
                at += 1
            }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            var sign = 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                if bytes[at] == UInt8(ascii: "-") { sign = -1 }
                at += 1
            }
            guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
            var written = 0
            while at < bytes.count, isDigit(bytes[at]) {
                written = min(written * 10 + Int(bytes[at] - UInt8(ascii: "0")), 1_000_000)
                at += 1
            }
            exponent += sign * written
        }
        if let integer = JSONReader.exactInteger(digits: digits, exponent: exponent, negative: negative) {
            return .integer(integer)
        }
        guard let double = Double(String(decoding: bytes[start..<at], as: UTF8.self)), double.isFinite else {
            at = start
            throw failure("number out of range")
        }
        // A literal whose nearest double is whole (9007199254740993.5, or 1e-400 underflowing
        // to zero) is that integer too, so every value reads back the same from `serialized`.
        return Int64(exactly: double).map { .integer($0) } ?? .number(double)
    }

    /// digits × 10^exponent (negated) when that is a whole number Int64 holds.
    private static func exactInteger(digits: [UInt8], exponent: Int, negative: Bool) -> Int64? {
        var digits = digits[...].drop { $0 == UInt8(ascii: "0") }
        var exponent = exponent
        while exponent < 0, digits.last == UInt8(ascii: "0") {
            digits = digits.dropLast()
            exponent += 1
        }
        if digits.isEmpty { return 0 }
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        // Accumulated negatively: Int64's range reaches one further below zero than above.
        var value: Int64 = 0
        for digit in digits + [UInt8](repeating: UInt8(ascii: "0"), count: exponent) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
