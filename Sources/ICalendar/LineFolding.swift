/// Content lines and the physical lines they are folded into (RFC 5545 §3.1).
public enum LineFolding {
    /// One logical content line and the physical line it started on.
    public struct Line: Hashable, Sendable {
        public let number: Int
        public let text: String
    }

    /// The logical lines of `text`: a line that begins with a space or a tab continues the one
    /// before it (the whitespace dropped). Accepts CRLF or bare LF, as servers and files send
    /// both; blank lines are skipped. Bytes that are not UTF-8 are an error naming the line,
    /// never a guess.
    public static func unfold(_ bytes: [UInt8]) throws(ICalendarError) -> [Line] {
        var lines: [Line] = []
        var current: [UInt8] = []
        var start = 0
        var number = 0
        func finish() throws(ICalendarError) {
            defer { current.removeAll(keepingCapacity: true) }
            guard !current.isEmpty else { return }
            guard let text = String(validating: current, as: UTF8.self) else {
                throw ICalendarError(line: start, "is not valid UTF-8")
            }
            lines.append(Line(number: start, text: text))
        }
        var index = 0
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var body = bytes[index..<end]
            if body.last == 0x0D { body = body.dropLast() }
            number += 1
            if let first = body.first, first == 0x20 || first == 0x09, !current.isEmpty {
                current += body.dropFirst()
            } else {
                try finish()
                current = Array(body)
                start = number
            }
            index = end + 1
        }
        try finish()
        return lines
    }

    /// `line` in physical lines of at most 75 octets, each continuation starting with a space,
    /// never splitting a UTF-8 sequence. It counts Unicode scalars, not Characters: one grapheme
    /// cluster (a letter with many combining marks) may be longer than a line, and unfolding
    /// joins it again anyway.
    public static func fold(_ line: String) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if count + size > 75 {
                result.append(contentsOf: "\r\n ".unicodeScalars)
                count = 1
            }
            result.append(scalar)
            count += size
        }
        return String(result)
    }
}
