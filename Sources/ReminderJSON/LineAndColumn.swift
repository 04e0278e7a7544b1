/// The line and column (in characters, both from 1) an editor shows for a byte offset of UTF-8
/// text. One rule for every message that points into a file, so a JSON syntax error and a config
/// check's problem name the same place the same way.
public struct LineAndColumn: Equatable, Sendable {
    public let line: Int
    public let column: Int

    /// Counts line feeds, and the lead bytes of characters since the last one, before `offset`.
    public init(of offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
    }
}
