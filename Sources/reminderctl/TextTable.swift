import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Columns padded to their widest cell, for the human forms of list-like output. Widths are
/// display widths (DisplayWidth); the `flexible` columns (a title, a card name) are truncated
/// with "…" so that no line is wider than `maxWidth` (the terminal's) — a wrapped table cannot
/// be read.
struct TextTable {
    let headers: [String]
    private var rows: [[String]] = []
    /// The columns that give up room when the table is too wide, with how much each one is
    /// worth keeping: the one with the most width per weight is cut first, a column at a time.
    var flexible: [(column: Int, weight: Int)] = []

    init(headers: [String], flexible: [(column: Int, weight: Int)] = []) {
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
        if let maxWidth {
            var overflow = widths.reduce(0, +) + 2 * (widths.count - 1) - maxWidth
            // A column is cut no shorter than its header or 6 columns, whichever is wider.
            let minimum = { (column: Int) in max(DisplayWidth.of(self.headers[column]), 6) }
            while overflow > 0 {
                let cuttable = flexible.filter { widths[$0.column] > minimum($0.column) }
                guard let cut = cuttable.max(by: { widths[$0.column] * $1.weight < widths[$1.column] * $0.weight })
                else { break }
                widths[cut.column] -= 1
                overflow -= 1
            }
        }
        let cut = Set(flexible.map(\.column))
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let last = column == cells.count - 1
                let shown = cut.contains(column) ? DisplayWidth.truncate(cell, to: widths[column]) : cell
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
        if let columns = environmentVariable("COLUMNS").flatMap({ Int($0) }), columns > 0 { return columns }
        return nil
    }
}
