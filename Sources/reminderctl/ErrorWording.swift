import ReminderCore
import ReminderJSON
import ReminderProtocol

/// The daemon's varlink errors in words: the error names (`AmbiguousId`, `NoSuchItem`) are the
/// protocol's, not something a person should have to decode.
enum ErrorWording {
    static func message(_ error: VarlinkError) -> String {
        let names = ReminderInterface.ErrorName.self
        func text(_ key: String) -> String {
            // The daemon's parameters quote the user's input or a server's answer: shown, never raw.
            if case .string(let value)? = error.parameters[key] { return shown(value) }
            return ""
        }
        switch error.name {
        case names.ambiguousId:
            let matches = error.parameters["matches"]?.elements.map { shown(Output.string($0)) } ?? []
            let listed = matches.prefix(8).joined(separator: ", ") + (matches.count > 8 ? ", …" : "")
            return "\"\(text("prefix"))\" matches \(matches.count) items (\(listed)); type more characters of the id"
        case names.ambiguousName:
            return ambiguousName(text("name"), candidates: error.parameters["candidates"]?.elements ?? [])
        case names.duplicate:
            return "\(text("reason")); nothing was added:\n"
                + itemLines(error.parameters["existing"]?.elements ?? []).joined(separator: "\n")
                + "\nTo add it anyway: the same command with --force"
        case names.nearCard:
            let known = error.parameters["known"]?.elements.map { "\"\(shown(Output.string($0)))\"" } ?? []
            return "no item is on a card \"\(text("card"))\" yet; did you mean \(known.joined(separator: " or "))? "
                + "Nothing was stored. If it is a new card: the same command with --new-card"
        case names.noSuchItem:
            if text("id").isEmpty { return "no item id given; see the ids with: reminderctl list" }
            return "no item has the id or title \"\(text("id"))\"; see them with: reminderctl list --all"
        case names.nothingToUndo:
            return "nothing to undo for \(text("id")): it has no Done left to undo"
        case names.notApplicable:
            return "\(text("id")): \(HumanTime.inText(text("reason")))"
        case names.invalidConfig:
            // The daemon names the file as the field, and its reason names the file again.
            // A line a mistake (`ConfigCheck`), each shown on its own so the newlines stay lines.
            let field = text("field")
            let lines = Output.string(error.parameters["reason"]).split(separator: "\n").map {
                shown(HumanTime.inText(String($0)))
            }
            let first = lines.first ?? ""
            let what = first.hasPrefix(field) || field.isEmpty ? lines : ["\(field): \(first)"] + lines.dropFirst()
            return "\(what.joined(separator: "\n")) (the config in use is kept)"
        case names.syncFailed:
            return "sync failed: \(text("reason").isEmpty ? "no reason given" : text("reason"))"
        case names.internal where text("reason").isEmpty:
            return "the daemon failed to carry out the command (see its log: journalctl --user -u reminderd)"
        case ReminderInterface.Service.methodNotFound:
            return "the running daemon does not know \(text("method")); is it an older version? Restart it."
        case ReminderInterface.Service.permissionDenied:
            return "the daemon refused the connection: it belongs to another user"
        default:
            // The other errors carry `field`/`parameter` and `reason`, already in words.
            if !text("reason").isEmpty { return shown(error.description) }
            return words(of: error)
        }
    }

    /// "uber" names 2 items; nothing was changed. Say which, by its id or more of its title:
    ///   k4s8  Uber Cash  benefit  Amex Platinum  due 2026-11-30
    static func ambiguousName(_ name: String, candidates: [JSONValue]) -> String {
        let head =
            "\"\(shown(name))\" names \(candidates.count) items; nothing was changed. "
            + "Say which, by its id or more of its title:"
        return ([head] + itemLines(candidates)).joined(separator: "\n")
    }

    /// "  k4s8  Uber Cash  benefit  Amex Platinum  due 2026-11-30", a line an item (12 at most).
    static func itemLines(_ items: [JSONValue]) -> [String] {
        var lines: [String] = []
        for candidate in items.prefix(12) {
            guard case .object(let fields) = candidate else { continue }
            let due = Output.string(fields["due"])
            let parts = [
                Output.string(fields["id"]), Output.string(fields["title"]), Output.string(fields["kind"]),
                Output.string(fields["card"]), due.isEmpty ? "" : "due \(Output.day(due))",
            ]
            lines.append("  " + parts.filter { !$0.isEmpty }.map(shown).joined(separator: "  "))
        }
        if items.count > 12 { lines.append("  and \(items.count - 12) more: reminderctl list") }
        return lines
    }

    /// An unknown error without a reason: its name split into words, with its parameters.
    static func words(of error: VarlinkError) -> String {
        let shortName = error.name.split(separator: ".").last.map(String.init) ?? error.name
        var spaced = ""
        for character in shortName {
            if character.isUppercase, !spaced.isEmpty { spaced += " " }
            spaced += character.lowercased()
        }
        let details = error.parameters.keys.sorted().map { "\($0) \(shown(Output.string(error.parameters[$0])))" }
        return "the daemon answered: \(spaced)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }
}
