#if canImport(Glibc)
    import Glibc
#endif

/// Columns padded to their widest cell, for the human forms of list-like output. Widths are
/// display widths (DisplayWidth); when a `flexible` column is named, it is truncated so that no
/// line is wider than `maxWidth` (the terminal's) — a wrapped table cannot be read.
struct TextTable {
    let headers: [String]
    private var rows: [[String]] = []
    /// The column that gives up room when the table is too wide (a title).
    var flexible: Int?

    init(headers: [String], flexible: Int? = nil) {
        self.headers = headers
        self.flexible = flexible
    }

    /// A table without a header line, for indented blocks.
    init(columns: Int) { headers = [String](repeating: "", count: columns) }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render(maxWidth: Int? = TextTable.terminalWidth()) -> String {
        var widths = headers.map(DisplayWidth.of)
        for row in rows {
            for (column, cell) in row.enumerated() {
                widths[column] = max(widths[column], DisplayWidth.of(cell))
            }
        }
        if let flexible, let maxWidth, flexible < widths.count {
            let others = widths.enumerated().filter { $0.offset != flexible }.map(\.element).reduce(0, +)
            let room = maxWidth - others - 2 * (widths.count - 1)
            widths[flexible] = min(widths[flexible], max(room, 8, DisplayWidth.of(headers[flexible])))
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let last = column == cells.count - 1
                let shown = column == flexible ? DisplayWidth.truncate(cell, to: widths[column]) : cell
                text +=
                    last ? shown : shown + String(repeating: " ", count: widths[column] - DisplayWidth.of(shown) + 2)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        let showHeader = headers.contains { !$0.isEmpty }
        return ((showHeader ? [headers] : []) + rows).map(line).joined()
    }

    /// The terminal's width in columns when stdout is one, else `$COLUMNS`, else nil (no limit:
    /// output piped to a file or another program is not cut).
    static func terminalWidth() -> Int? {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        return nil
    }
}
