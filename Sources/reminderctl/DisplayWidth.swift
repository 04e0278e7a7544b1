import ReminderCore

/// How many terminal columns text takes: wide East Asian characters and emoji take two, ANSI
/// colour sequences none. Tables pad and truncate by this, not by `count`, or a row with
/// `寿司` or `🍕` in its title pushes every column after it out of line.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        // Printable ASCII — nearly every cell of a table — is one column a byte: no grapheme
        // breaking and no Unicode property lookups (the emoji lookup was 87% of the CPU of
        // `plan`'s table, profiled with callgrind).
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text.utf8.count }
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += of(character)
            }
        }
        return width
    }

    /// One grapheme: 0 for controls and invisible format characters (the bidi isolates `shown`
    /// wraps right-to-left text in, LRM, zero-width space), 2 for wide or emoji-presentation
    /// ones, else 1. The soft hyphen is the one format character terminals draw.
    static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if first.properties.generalCategory == .format, first.value != 0xAD,
            character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .format })
        {
            return 0
        }
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F || isWide(scalar.value) || scalar.properties.isEmojiPresentation { return 2 }
        }
        return 1
    }

    /// Unicode's East Asian Wide and Fullwidth ranges (UAX #11), the blocks that occur in text.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default: return false
        }
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut. A bidi isolate or
    /// embedding whose end was cut off is closed before the "…", so none is left open.
    static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return String(text.prefix(width - 1)) + "…" }
        var result = ""
        var used = 0
        for character in text {
            let size = of(character)
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return ForeignText.balancedDirection(result) + "…"
    }
}
