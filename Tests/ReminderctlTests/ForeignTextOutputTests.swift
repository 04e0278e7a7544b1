import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// Text that did not come from reminderctl — a title, a card's name, a note, a history reason
/// quoting a CalDAV server — never reaches the terminal with its controls: ESC sequences (a new
/// window title, OSC 52 writing the clipboard), BEL and C1 controls are shown as `\u{1B}`, and
/// a bidi override cannot reverse the columns after it. `--json` keeps the text exact.
@Suite struct ForeignTextOutputTests {
    /// OSC 0 (window title), OSC 52 (clipboard), BEL, a right-to-left override left open and
    /// C1 CSI (U+009B) "clear screen".
    static let hostile =
        "Rent \u{1B}]0;pwned\u{07} \u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{202E}reversed \u{9B}2J end"

    /// The first raw control of `text` other than a newline, nil when there is none.
    func rawControl(_ text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0 != "\n" && ForeignText.isControl($0) }
    }

    /// How many bidi embeddings, overrides and isolates `line` leaves open at its end, plus the
    /// closers that close nothing of its own (UAX #9's pairing).
    func unbalancedDirection(_ line: some StringProtocol) -> Int {
        var open: [UInt32] = []
        var stray = 0
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x202A, 0x202B, 0x202D, 0x202E: open.append(0x202C)
            case 0x2066...0x2068: open.append(0x2069)
            case 0x202C: if open.last == 0x202C { open.removeLast() } else { stray += 1 }
            case 0x2069:
                if let index = open.lastIndex(of: 0x2069) { open.removeSubrange(index...) } else { stray += 1 }
            default: break
            }
        }
        return open.count + stray
    }

    func item(_ id: String, title: String, card: String = "Amex Gold", status: String = "available") -> ItemView {
        ItemView.reply( [
            "id": .string(id), "kind": .string("benefit"), "title": .string(title), "card": .string(card),
            "amount": .string("10"), "currency": .string("USD"), "period": .string("monthly"),
            "status": .string(status), "due": .string("2030-01-31T23:59:00+00:00"), "daysLeft": .integer(30),
            "nextReminder": .string("2030-01-24T09:00:00+00:00"), "notes": .string("call \u{1B}[2J\u{07} them"),
            "code": .string("\u{9B}6n"),
        ])
    }

    @Test func shownShowsControlsVisiblyAndIsolatesRightToLeftText() {
        let text = shown(ForeignTextOutputTests.hostile)
        #expect(rawControl(text) == nil)
        #expect(text.contains("Rent \\u{1B}]0;pwned\\u{07} \\u{1B}]52;c;cm0gLXJmIH4=\\u{07}"))
        #expect(text.contains("\\u{9B}2J end"))
        #expect(text.hasPrefix("\u{2068}") && text.hasSuffix("\u{202C}\u{2069}"), "isolated, the override closed")
        #expect(unbalancedDirection(text) == 0)
        #expect(shown("Uber Cash") == "Uber Cash", "plain text is left as it is")
        #expect(shown("a\nb\tc") == "a\\u{0A}b\\u{09}c", "a cell stays one line")
    }

    @Test func aStrayCloserCannotEndTheIsolateEarly() {
        // A PDI of the title's own would close the isolate around it and leave its RLO open.
        let text = shown("\u{2069}\u{202E}gotcha")
        #expect(text == "\u{2068}\\u{2069}\u{202E}gotcha\u{202C}\u{2069}")
        #expect(unbalancedDirection(text) == 0)
        #expect(ForeignText.balancedDirection("\u{2067}a\u{202E}b\u{2069}c") == "\u{2067}a\u{202E}b\u{2069}c")
        #expect(ForeignText.balancedDirection("\u{2067}a\u{202C}") == "\u{2067}a\\u{202C}\u{2069}")
    }

    @Test func listPrintsNoControlAndKeepsItsColumnsInLine() {
        let text = List.table(
            [item("aaaa", title: ForeignTextOutputTests.hostile), item("bbbb", title: "Plain", status: "expiring")],
            maxWidth: nil)
        #expect(rawControl(text) == nil, "\(text.debugDescription)")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines { #expect(unbalancedDirection(line) == 0, "\(line.debugDescription)") }
        // STATUS starts at the same column on every line: the isolates take none.
        let starts = zip(lines, ["STATUS", "available", "expiring"]).map { line, word in
            DisplayWidth.of(String(line[..<line.range(of: word)!.lowerBound]))
        }
        #expect(Set(starts).count == 1, "\(lines)")
    }

    @Test func aTitleCutToFitTheTerminalLeavesNoIsolateOpen() {
        let title = "\u{202E}" + String(repeating: "long title ", count: 12)
        let text = List.table([item("aaaa", title: title), item("bbbb", title: "Plain")], maxWidth: 100)
        for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 100, "\(line)")
            #expect(unbalancedDirection(line) == 0, "\(line.debugDescription)")
        }
        #expect(text.contains("…"))
        #expect(DisplayWidth.of("\u{2068}abc\u{202C}\u{2069}") == 3)
    }

    @Test func showPrintsNoControlInAnyField() {
        let text = ItemCard.render(item("aaaa", title: ForeignTextOutputTests.hostile))
        #expect(rawControl(text) == nil, "\(text.debugDescription)")
        for line in text.split(separator: "\n") { #expect(unbalancedDirection(line) == 0) }
        #expect(text.contains("call \\u{1B}[2J\\u{07} them"))
        #expect(text.contains("\\u{9B}6n"))
    }

    @Test func historyShowsAServersReasonEscapedAndAligned() {
        let reason = "the server's copy was unreadable (X-REMINDERD-AMOUNT: \"\u{1B}]52;c;ZXZpbA==\u{07}\")"
        let entries = [
            HistoryReply.Entry(
                at: "2030-01-02T10:00:00+00:00", item: "aaaa", title: ForeignTextOutputTests.hostile, event: "kept",
                reason: reason),
            HistoryReply.Entry(
                at: "2030-01-02T11:00:00+00:00", item: "bbbb", title: "Plain", event: "done", reason: "by you"),
        ]
        let text = History.table(entries, maxWidth: nil)
        #expect(rawControl(text) == nil, "\(text.debugDescription)")
        #expect(text.contains("X-REMINDERD-AMOUNT: \"\\u{1B}]52;c;ZXZpbA==\\u{07}\""))
        let lines = text.split(separator: "\n")
        for line in lines { #expect(unbalancedDirection(line) == 0) }
        let starts = zip(lines, ["REASON", "the server", "by you"]).map { line, word in
            DisplayWidth.of(String(line[..<line.range(of: word)!.lowerBound]))
        }
        #expect(Set(starts).count == 1, "\(lines)")
    }

    @Test func walletAndSyncStatusShowForeignTextEscaped() {
        let cards = WalletCard.stack(
            items: [item("aaaa", title: ForeignTextOutputTests.hostile, card: "Gold \u{1B}]0;x\u{07}\u{202E}")],
            feeReturns: [])
        let wallet = cards.map { $0.render(colour: true) }.joined()
        #expect(rawControl(wallet.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(
            of: "\u{1B}[0m", with: "")) == nil, "only the wallet's own colours: \(wallet.debugDescription)")
        for line in wallet.split(separator: "\n") { #expect(unbalancedDirection(line) == 0) }
        let status = SyncWording(
            reply: SyncStatusReply(
                account: "alice@dav.example", collection: "/x\u{1B}]0;t\u{07}/", lastSync: nil, lastAttempt: nil,
                error: "the server answered 500: \u{1B}]52;c;ZXZpbA==\u{07}\u{202E}", waiting: 0, waitingSince: nil,
                conflicts: 0, connected: true),
            now: 1_900_000_000, configured: nil)
        let lines = status.lines.map { "\($0.0): \($0.1)" } + [status.statusLine ?? ""]
        for line in lines {
            #expect(rawControl(line) == nil, "\(line.debugDescription)")
            #expect(unbalancedDirection(line) == 0)
        }
    }

    @Test func jsonKeepsTheExactTitleWithNoRawControl() throws {
        let title = ForeignTextOutputTests.hostile + "\u{7F}\u{2066}\u{2028}"
        let text = Output.json(.object(["items": .array([item("aaaa", title: title).json])]))
        #expect(rawControl(text) == nil)
        #expect(!text.unicodeScalars.contains { ForeignText.isDirectionControl($0) || $0 == "\u{2028}" })
        #expect(text.contains("\\u009b2J") && text.contains("\\u202e"))
        let parsed = try JSONValue.parse(Array(text.utf8), source: "output")
        guard case .object(let top) = parsed, case .array(let items)? = top["items"],
            case .object(let first)? = items.first
        else { Issue.record("not the list's JSON: \(text)"); return }
        #expect(first["title"] == .string(title))
    }

    @Test func theOutputBackstopKeepsColoursAndStopsEverythingElse() {
        #expect(TerminalOutput.safe("\u{1B}[1;31m‼ today\u{1B}[0m\n") == "\u{1B}[1;31m‼ today\u{1B}[0m\n")
        #expect(TerminalOutput.safe("a\u{1B}]0;x\u{07}b\r\n") == "a\\u{1B}]0;x\\u{07}b\r\n")
        #expect(TerminalOutput.safe("x\ry\u{9B}") == "x\\u{0D}y\\u{9B}")
        #expect(TerminalOutput.safe("\u{202E}abc\nnext\n") == "\u{202E}abc\u{202C}\nnext\n")
    }

    /// The byte-level fast path lets through only what the full rule leaves as it is.
    @Test func thePlainFastPathAgreesWithTheFullRule() {
        for text in ["", "Uber Cash  $15", "寿司 🍕 קופון", "a\tb\nc\n", "é", "\u{200F}LRM-free"] {
            #expect(TerminalOutput.isPlain(text) && TerminalOutput.safe(text) == text, "\(text.debugDescription)")
        }
        for text in [
            "\u{1B}[31mred", "x\u{07}", "\u{7F}", "\u{9B}", "\u{85}", "\u{80}", "\u{202A}", "\u{202E}", "\u{2066}",
            "\u{2069}", "a\rb",
        ] {
            #expect(!TerminalOutput.isPlain(text), "\(text.debugDescription)")
        }
    }
}
