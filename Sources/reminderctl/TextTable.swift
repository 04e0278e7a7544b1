/// Columns padded to their widest cell, for the human forms of list-like output.
struct TextTable {
    let headers: [String]
    private var rows: [[String]] = []

    init(headers: [String]) { self.headers = headers }

    /// A table without a header line, for indented blocks.
    init(columns: Int) { headers = [String](repeating: "", count: columns) }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = headers.map(TextTable.visibleWidth)
        for row in rows {
            for (column, cell) in row.enumerated() {
                widths[column] = max(widths[column], TextTable.visibleWidth(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let last = column == cells.count - 1
                text +=
                    last
                    ? cell : cell + String(repeating: " ", count: widths[column] - TextTable.visibleWidth(cell) + 2)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        let showHeader = headers.contains { !$0.isEmpty }
        return ((showHeader ? [headers] : []) + rows).map(line).joined()
    }

    /// Characters shown, not counting ANSI colour sequences (ESC [ … m).
    static func visibleWidth(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += 1
            }
        }
        return width
    }
}
