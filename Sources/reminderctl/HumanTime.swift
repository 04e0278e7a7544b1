import CivilTime
import ReminderCore

/// Times as a person reads them in a table: `Tue 2026-11-24 09:00` (`DateText.table`).
enum HumanTime {
    static func format(_ instant: Int64, in zone: TimeZoneRules) -> String {
        DateText.table(zone.localDateTime(at: instant))
    }

    /// `text` with each RFC 3339 time in it (`2026-11-24T09:00:00-05:00`, `…Z`) written as the
    /// tables write it, in its own offset: the daemon's reasons (history, a refused Done, a
    /// shortened snooze) carry times for machines, and old history and other devices' entries keep
    /// them so; the terminal shows them as a person reads them (`--json` keeps them as they are).
    static func inText(_ text: String) -> String {
        guard text.contains("T") else { return text }
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            if let (length, shown) = timestamp(in: characters, at: index) {
                result += shown
                index += length
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }

    /// The RFC 3339 time (seconds and an offset or `Z`) that starts at `index`, not inside a
    /// longer run of digits: its length and its table form.
    private static func timestamp(in characters: [Character], at index: Int) -> (Int, String)? {
        guard characters[index].isASCII, characters[index].isNumber,
            index == 0 || !(characters[index - 1].isASCII && characters[index - 1].isNumber),
            index + 20 <= characters.count, characters[index + 10] == "T"
        else { return nil }
        let length = characters[index + 19] == "Z" ? 20 : 25
        guard index + length <= characters.count else { return nil }
        let candidate = String(characters[index..<(index + length)])
        guard case .success = Timestamp.parse(candidate) else { return nil }
        return (length, Output.when(candidate))
    }
}
