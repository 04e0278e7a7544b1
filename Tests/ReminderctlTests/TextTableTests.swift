import Testing

@testable import reminderctl

/// Tables line up by display width and fit the terminal.
@Suite struct TextTableTests {
    @Test func wideCharactersAndEmojiCountTwoColumns() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("寿司") == 4)
        #expect(DisplayWidth.of("🍕 Pizza") == 8)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("\u{1B}[31mred\u{1B}[0m") == 3)
        #expect(DisplayWidth.of("é") == 1)  // e + combining accent: one grapheme
    }

    /// The printable-ASCII fast path gives what the per-grapheme rule gives, and so does its cut.
    @Test func theASCIIFastPathAgreesWithTheGraphemeRule() {
        let samples = [
            "", "a", "Uber Cash", "Thu 2026-11-26 09:00", "~!@#$%^&*()_+{}|:<>? `", "tab\there", "del\u{7F}x",
            String(repeating: "x", count: 80),
        ]
        for text in samples {
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.debugDescription)")
            for width in 0...12 where DisplayWidth.of(text) > width && width > 0 {
                let cut = DisplayWidth.truncate(text, to: width)
                #expect(cut.hasSuffix("…") && DisplayWidth.of(cut) == width, "\(text.debugDescription) to \(width)")
            }
        }
    }

    @Test func columnsAfterACJKOrEmojiTitleLineUp() {
        var table = TextTable(headers: ["ID", "TITLE", "DUE"])
        table.add(["a", "寿司 night", "Fri"])
        table.add(["b", "🍕 Pizza", "Sat"])
        table.add(["c", "Plain", "Sun"])
        let lines = table.render(maxWidth: nil).split(separator: "\n").map(String.init)
        let dueColumns = lines.map { line in
            DisplayWidth.of(String(line[..<line.range(of: line.hasPrefix("ID") ? "DUE" : line.suffix(3))!.lowerBound]))
        }
        #expect(Set(dueColumns).count == 1, "DUE starts at the same column on every line: \(lines)")
    }

    /// Money as a locale writes it (issue 31): ₩ is East Asian Halfwidth and € Ambiguous, one
    /// column each as terminals draw them; the fullwidth won sign ￦ and Hangul take two. A table
    /// with Korean headers and won amounts keeps its columns in line.
    @Test func currencySymbolsAndHangulHeadersKeepColumnsInLine() {
        #expect(DisplayWidth.of("₩4,900") == 6)
        #expect(DisplayWidth.of("1.234,50 €") == 10)
        #expect(DisplayWidth.of("£5 ¥5 ₹5 $5") == 11)
        #expect(DisplayWidth.of("￦4,900") == 7)
        #expect(DisplayWidth.of("금액") == 4)
        var table = TextTable(headers: ["제목", "금액", "상태"])
        table.add(["다 떨어지기 전에", "₩4,900", "사용 가능"])
        table.add(["Bahn", "1.234,50 €", "ok"])
        let lines = table.render(maxWidth: nil).split(separator: "\n").map(String.init)
        let statusColumns = lines.map { line in
            let last = ["상태", "사용 가능", "ok"].first { line.hasSuffix($0) }!
            return DisplayWidth.of(String(line.dropLast(last.count)))
        }
        #expect(Set(statusColumns).count == 1, "the third column starts at the same column on every line: \(lines)")
    }

    @Test func theTitleIsTruncatedToFitTheTerminal() {
        var table = TextTable(headers: ["ID", "TITLE", "STATUS"], flexible: [(1, 1)])
        table.add(["ab12", String(repeating: "Hotel credit ", count: 10), "available"])
        table.add(["cd34", "短い" + String(repeating: "長", count: 60), "used"])
        let text = table.render(maxWidth: 60)
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 60, "\(line)") }
        #expect(text.contains("…"))
        #expect(text.contains("available") && text.contains("used"))
    }

    @Test func truncationKeepsShortTextAndCutsOnCharacters() {
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.truncate("寿司寿司", to: 5) == "寿司…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("寿司寿司", to: 5)) <= 5)
    }

    @Test func theTitleKeepsTwiceTheRoomOfTheCard() {
        var table = TextTable(headers: ["TITLE", "CARD", "STATUS"], flexible: [(0, 2), (1, 1)])
        table.add([String(repeating: "t", count: 60), String(repeating: "c", count: 30), "available"])
        let line = table.render(maxWidth: 50).split(separator: "\n")[1]
        let cells = line.split(separator: " ", omittingEmptySubsequences: true)
        #expect(DisplayWidth.of(String(line)) <= 50)
        #expect(cells[0].count == 2 * cells[1].count || cells[0].count == 2 * cells[1].count + 1, "\(cells)")
    }
}
