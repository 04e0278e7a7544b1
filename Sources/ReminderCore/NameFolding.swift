/// Titles and card names compared as a person means them: "uber cash" names "Uber Cash",
/// "cafe" names "Café", "creme brulee" names "Crème Brûlée". Without ICU or Foundation (the
/// daemon links neither), so the folding is ours: lower case (the standard library's, full
/// Unicode), the accented Latin letters of Latin-1 and Latin Extended-A to their base letters,
/// combining marks dropped (a title typed decomposed, "e" + U+0301), curly apostrophes as
/// straight ones, and runs of white space as one space, trimmed.
public enum NameFolding {
    /// `text` folded for comparison; two names are the same name when their folds are equal.
    public static func fold(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if (0x300...0x36F).contains(scalar.value) { continue }  // combining diacritical marks
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if scalar.value < 0xC0 {
                out.unicodeScalars.append(scalar)
            } else if let base = bases[scalar] {
                out += base
            } else if scalar == "\u{2019}" || scalar == "\u{2018}" {
                out.append("'")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// How far apart two folded names are: the edit distance (insertions, deletions,
    /// substitutions, and two neighbours swapped), for "did you mean …?". Names are short
    /// (≤ 100 characters), so the quadratic table is small.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// Whether `typed` is probably a typo of `known` (both folded): a few edits apart for its
    /// length (1 up to 4 characters, 2 up to 9, 3 beyond), or the start of it.
    public static func isNear(_ typed: String, _ known: String) -> Bool {
        guard typed != known, !typed.isEmpty else { return false }
        if typed.count >= 3, known.hasPrefix(typed) { return true }
        let allowed = known.count <= 4 ? 1 : known.count <= 9 ? 2 : 3
        return distance(typed, known) <= allowed
    }

    /// The lower-case accented letters of Latin-1 Supplement and Latin Extended-A, by base.
    private static let bases: [Unicode.Scalar: String] = {
        let groups: [(String, String)] = [
            ("a", "àáâãäåāăą"), ("c", "çćĉċč"), ("d", "ďđð"), ("e", "èéêëēĕėęě"), ("g", "ĝğġģ"),
            ("h", "ĥħ"), ("i", "ìíîïĩīĭįı"), ("j", "ĵ"), ("k", "ķĸ"), ("l", "ĺļľŀł"), ("n", "ñńņňŉŋ"),
            ("o", "òóôõöøōŏő"), ("r", "ŕŗř"), ("s", "śŝşšſ"), ("t", "ţťŧ"), ("u", "ùúûüũūŭůűų"),
            ("w", "ŵ"), ("y", "ýÿŷ"),
            ("z", "źżž"), ("ss", "ß"), ("ae", "æ"), ("oe", "œ"), ("th", "þ"), ("ij", "ĳ"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (base, letters) in groups {
            for scalar in letters.unicodeScalars { table[scalar] = base }
        }
        return table
    }()
}
