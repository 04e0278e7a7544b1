import ReminderCore

#if canImport(Glibc)
    import Glibc
#endif

/// Foreign text (a title, a card's name, a note, a code, a history reason, a server's answer)
/// ready to be printed: controls shown visibly as `\u{1B}`, bidi controls balanced, and
/// right-to-left text isolated (ForeignText.forTerminal). Every place that puts such text into
/// human output calls this; `print` below catches what one of them forgets.
func shown(_ text: String) -> String { ForeignText.forTerminal(text) }

/// The one way out to the terminal for this module: it shadows the standard library's `print`,
/// so every line reminderctl writes — tables, sentences, prompts, errors (`printError`) — passes
/// `TerminalOutput.safe` on its way. The program's own colours (SGR, `ESC [ … m`) pass; any
/// other control, and any bidi control left open at a line's end, cannot reach the terminal
/// even from a call site that forgot `shown`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(TerminalOutput.safe(text + terminator), terminator: "")
}

/// The same for one line of text, which is what nearly every call prints: no `Any` to describe
/// and no array to join, each of which costs the runtime a scan of every protocol conformance in
/// the binary the first time (issue 21: `status` is measured at start-up).
func print(_ text: String, terminator: String = "\n") {
    Swift.print(TerminalOutput.safe(text + terminator), terminator: "")
}

enum TerminalOutput {
    /// `text` with newlines, tabs, CR LF line ends and SGR colour sequences kept, every other
    /// control shown visibly, and each line's bidi controls balanced.
    static func safe(_ text: String) -> String {
        if isPlain(text) { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            defer { index += 1 }
            guard ForeignText.isControl(scalar) else {
                out.append(scalar)
                continue
            }
            switch scalar {
            case "\n", "\t":
                out.append(scalar)
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n":
                out.append(scalar)
            case "\u{1B}" where sgrLength(scalars, at: index) > 0:
                let length = sgrLength(scalars, at: index)
                out.append(contentsOf: scalars[index..<index + length])
                index += length - 1
            default:
                out.append(contentsOf: ForeignText.visible(scalar).unicodeScalars)
            }
        }
        return ForeignText.balancedDirection(String(out))
    }

    /// Whether `text` holds nothing `safe` would change — no control but newline and tab, no
    /// bidi control — told from its UTF-8 bytes alone, so a table or a JSON reply of megabytes
    /// is not taken apart scalar by scalar: C1 controls are `C2 80…9F`, the bidi embeddings and
    /// overrides `E2 80 AA…AE`, the isolates `E2 81 A6…A9`.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for at in bytes.indices {
                switch bytes[at] {
                case 0x0A, 0x09: continue
                case 0..<0x20, 0x7F: return false
                case 0xC2 where at + 1 < bytes.count && (0x80...0x9F).contains(bytes[at + 1]): return false
                case 0xE2 where at + 2 < bytes.count:
                    let (second, third) = (bytes[at + 1], bytes[at + 2])
                    if second == 0x80, (0xAA...0xAE).contains(third) { return false }
                    if second == 0x81, (0xA6...0xA9).contains(third) { return false }
                default: continue
                }
            }
            return true
        } ?? false  // not contiguous (none of Swift's own strings): the scalar-by-scalar path
    }

    /// The length of the SGR sequence (`ESC [ 1;31 m`) at `index`, 0 when there is none: only
    /// colour and weight, which change no more than how the following text looks.
    static func sgrLength(_ scalars: [Unicode.Scalar], at index: Int) -> Int {
        guard index + 2 < scalars.count, scalars[index] == "\u{1B}", scalars[index + 1] == "[" else { return 0 }
        var end = index + 2
        while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
        guard end < scalars.count, scalars[end] == "m" else { return 0 }
        return end - index + 1
    }

    /// A data format that has no escape for a control (iCalendar): written exactly when stdout
    /// is a file or a pipe, through `print` when it is a terminal.
    static func data(_ text: String) {
        if isatty(STDOUT_FILENO) == 1 { print(text, terminator: "") } else { Swift.print(text, terminator: "") }
    }
}
