/// Text that did not come from this program — a title or a note the user typed, a CalDAV
/// server's answer quoted in a reason — made harmless where it is shown: on a terminal, in a
/// journal line. Such text may hold ESC sequences (retitle or clear the terminal, write the
/// clipboard with OSC 52), BEL, C1 controls (U+009B is CSI on some terminals) and bidi
/// embeddings or overrides that, left open, draw the rest of a table row reversed.
///
/// Controls are shown visibly, in one spelling everywhere: `\u{1B}` (the code point in hex, at
/// least two digits), as README.md's Troubleshooting says. The stored text stays exact: only
/// what is printed or logged is changed (JSON output escapes the same characters as `\u001b`).
public enum ForeignText {
    /// A C0 control, DEL or a C1 control: what a terminal acts on instead of drawing.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The explicit bidi formatting characters (UAX #9 §2): embeddings and overrides, closed by
    /// PDF; isolates, closed by PDI.
    public static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `\u{1B}` for U+001B: how a control is shown.
    public static func visible(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    }

    /// `text` with every control shown visibly (`\u{1B}`), newlines and tabs included: one
    /// line of text stays one line, a journal line cannot forge the next one.
    public static func visibleControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out.append(contentsOf: visible(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// `text` with no bidi embedding, override or isolate left open at its end, nor one closed
    /// that it did not open: each still open at the end (or at a newline) is closed there, and a
    /// PDF or PDI that closes nothing of the text's own is shown visibly (it would close what the
    /// text is printed inside of). Follows UAX #9: a PDI also closes the embeddings opened
    /// after its isolate; a PDF does not close past an isolate.
    public static func balancedDirection(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isDirectionControl) else { return text }
        enum Opened { case embedding, isolate }
        var open: [Opened] = []
        var out = String.UnicodeScalarView()
        func closeAll() {
            for opened in open.reversed() { out.append(opened == .embedding ? "\u{202C}" : "\u{2069}") }
            open.removeAll()
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x202A, 0x202B, 0x202D, 0x202E:
                open.append(.embedding)
            case 0x2066, 0x2067, 0x2068:
                open.append(.isolate)
            case 0x202C:
                guard open.last == .embedding else {
                    out.append(contentsOf: visible(scalar).unicodeScalars)
                    continue
                }
                open.removeLast()
            case 0x2069:
                guard let isolate = open.lastIndex(of: .isolate) else {
                    out.append(contentsOf: visible(scalar).unicodeScalars)
                    continue
                }
                open.removeSubrange(isolate...)
            case 0x0A, 0x0D, 0x1C...0x1E, 0x85, 0x2029:
                // A paragraph ends: everything open ends with it; closed explicitly all the same.
                closeAll()
            default: break
            }
            out.append(scalar)
        }
        closeAll()
        return String(out)
    }

    /// Whether `text` can change the order of what is printed around it: a right-to-left letter
    /// (Hebrew, Arabic, Syriac, Thaana, N'Ko and the other RTL blocks) or a direction control.
    public static func hasRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
                0x200F, 0x061C:
                return true
            default: return isDirectionControl(scalar)
            }
        }
    }

    /// One piece of foreign text for a terminal (a table cell, a quoted reason): its controls
    /// shown visibly, its bidi controls balanced, and — when it holds anything right-to-left —
    /// wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, so that it is ordered on its
    /// own and the columns after it stay in their places. Plain left-to-right text is returned
    /// unchanged (no invisible bytes in what scripts read).
    public static func forTerminal(_ text: String) -> String {
        let shown = balancedDirection(visibleControls(text))
        return hasRightToLeft(shown) ? "\u{2068}" + shown + "\u{2069}" : shown
    }

    /// One log line: controls shown visibly and bidi controls balanced.
    public static func forLog(_ text: String) -> String { balancedDirection(visibleControls(text)) }
}
