/// Columns padded to their widest cell, for the human forms of list-like output.
struct TextTable {
    let headers: [String]
    private var rows: [[String]] = []

    init(headers: [String]) { self.headers = headers }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                let last = column == cells.count - 1
                text += last ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        return ([headers] + rows).map(line).joined()
    }
}
