import CivilTime
import ReminderCore
import ReminderJSON

/// Every mistake of a config file at once, each at its line and column, with the setting or
/// zone probably meant: a person fixing a config should not have to reload once per mistake,
/// nor count keys to find the one named. Each top-level key is checked on its own by
/// `Configuration(json:)` (no setting depends on another), so one bad key hides no other.
enum ConfigCheck {
    /// The settings of CONTRACT §3.
    static let settings = [
        "timeZone", "reminderTime", "leadTimes", "quietHours", "snoozeOptions", "currency", "socketPath",
        "historyDays", "sync", "indicator", "repeatEvery", "repeatTimes", "workdays", "language",
    ]

    /// "PATH:LINE:COLUMN: what is wrong" for each mistake, in the file's order; empty when none.
    static func problems(_ document: JSONValue, bytes: [UInt8], path: String, zones: ZoneDatabase) -> [String] {
        guard case .object(let fields) = document else {
            return ["\(path): expected a JSON object of settings, like {\"timeZone\": \"Europe/Berlin\"}"]
        }
        var found: [(offset: Int?, text: String)] = []
        for (key, value) in fields {
            let offset = TextPosition.key([key], in: bytes)
            guard settings.contains(key) else {
                let near = settings.filter { NameFolding.isNear(key.lowercased(), $0.lowercased()) }
                let hint =
                    near.isEmpty ? "the settings are \(settings.joined(separator: ", "))" : "did you mean \(near[0])?"
                found.append((offset, "\"\(key)\" is not a setting; \(hint)"))
                continue
            }
            do throws(ReminderCoreError) {
                _ = try Configuration(json: .object([key: value]))
            } catch {
                let at = TextPosition.key(error.field.split(separator: ".").map(String.init), in: bytes)
                found.append((at ?? offset, error.description))
                continue
            }
            if key == "timeZone", case .string(let name) = value, let problem = zoneProblem(name, zones: zones) {
                found.append((offset, "timeZone: \(problem)"))
            }
        }
        return found.sorted { ($0.offset ?? 0) < ($1.offset ?? 0) }.map { problem in
            let place = problem.offset.map { LineAndColumn(of: $0, in: bytes) }
            return "\(path)\(place.map { ":\($0.line):\($0.column)" } ?? ""): \(problem.text)"
        }
    }

    /// Why `name` is no zone of the database, with the zone it most likely means; nil when it is one.
    static func zoneProblem(_ name: String, zones: ZoneDatabase) -> String? {
        do throws(ReminderPlatformError) {
            _ = try zones.zone(named: name)
            return nil
        } catch {
            let typed = name.lowercased()
            let best = zones.names().map { ($0, NameFolding.distance(typed, $0.lowercased())) }
                .filter { $0.1 <= max(2, typed.count / 5) }.min { $0.1 < $1.1 }
            let hint = best.map { "; did you mean \($0.0)?" } ?? "; names are like Europe/Berlin or America/New_York"
            return "\"\(name)\" is not a time zone in \(zones.directory)\(hint)"
        }
    }
}

/// Where in a JSON text a key is, said as a person finds it in an editor.
enum TextPosition {
    /// The byte offset of the last of `path`'s keys, each looked for after the one before
    /// (`quietHours`, then its `start`); nil when a key is not found as a member name.
    static func key(_ path: [String], in bytes: [UInt8]) -> Int? {
        var from = 0
        var found: Int?
        for component in path {
            // An array index (`leadTimes[2]`) is inside its key's value: point at the key.
            let name = component.split(separator: "[").first.map(String.init) ?? component
            guard let at = member(name, in: bytes, from: from) else { return found }
            found = at
            from = at + 1
        }
        return found
    }

    /// The offset of `"name"` followed by optional white space and a colon, at or after `from`.
    private static func member(_ name: String, in bytes: [UInt8], from: Int) -> Int? {
        let quoted = Array("\"\(name)\"".utf8)
        var at = from
        while at + quoted.count <= bytes.count {
            if bytes[at] == quoted[0], Array(bytes[at..<(at + quoted.count)]) == quoted {
                var next = at + quoted.count
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":") { return at }
            }
            at += 1
        }
        return nil
    }
}
