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
        // The daemon's reason in the terminal's language when it sent its template (`Wording`).
        let reason = error.translatedReason.map(shown) ?? ""
        switch error.name {
        case names.ambiguousId:
            let matches = error.parameters["matches"]?.elements.map { shown(Output.string($0)) } ?? []
            let listed = matches.prefix(8).joined(separator: ", ") + (matches.count > 8 ? ", …" : "")
            return _n(
                "\"%1$s\" matches %2$d item (%3$s); type more characters of the id",
                "\"%1$s\" matches %2$d items (%3$s); type more characters of the id", matches.count
            ).filled(text("prefix"), String(matches.count), listed)
        case names.ambiguousName:
            return ambiguousName(text("name"), candidates: error.parameters["candidates"]?.elements ?? [])
        case names.duplicate:
            return _t("%1$s; nothing was added:").filled(reason) + "\n"
                + itemLines(error.parameters["existing"]?.elements ?? []).joined(separator: "\n")
                + "\n" + _t("To add it anyway: the same command with --force")
        case names.nearCard:
            let known = error.parameters["known"]?.elements.map { "\"\(shown(Output.string($0)))\"" } ?? []
            return _t(
                "no item is on a card \"%1$s\" yet; did you mean %2$s? Nothing was stored. If it is a new card: the same command with --new-card"
            ).filled(text("card"), known.joined(separator: _t(" or ")))
        case names.noSuchItem:
            if text("id").isEmpty { return _t("no item id given; see the ids with: reminderctl list") }
            return _t("no item has the id or title \"%1$s\"; see them with: reminderctl list --all").filled(text("id"))
        case names.nothingToUndo:
            return _t("nothing to undo for %1$s: it has no Done left to undo").filled(text("id"))
        case names.notApplicable:
            return "\(text("id")): \(HumanTime.inText(reason))"
        case names.invalidConfig:
            // The daemon names the file as the field, and its reason names the file again.
            // A line a mistake (`ConfigCheck`), each shown on its own so the newlines stay lines.
            let field = text("field")
            let lines = Output.string(error.parameters["reason"]).split(separator: "\n").map {
                shown(HumanTime.inText(String($0)))
            }
            let first = lines.first ?? ""
            let what = first.hasPrefix(field) || field.isEmpty ? lines : ["\(field): \(first)"] + lines.dropFirst()
            return _t("%1$s (the config in use is kept)").filled(what.joined(separator: "\n"))
        case names.syncFailed:
            return _t("sync failed: %1$s").filled(reason.isEmpty ? _t("no reason given") : reason)
        case names.internal where text("reason").isEmpty:
            return _t("the daemon failed to carry out the command (see its log: journalctl --user -u reminderd)")
        case ReminderInterface.Service.methodNotFound:
            return _t("the running daemon does not know %1$s; is it an older version? Restart it.").filled(text("method"))
        case ReminderInterface.Service.permissionDenied:
            return _t("the daemon refused the connection: it belongs to another user")
        default:
            // The other errors carry `field`/`parameter` and `reason`, already in words.
            if !text("reason").isEmpty { return shown(error.translatedDescription) }
            return words(of: error)
        }
    }

    /// "uber" names 2 items; nothing was changed. Say which, by its id or more of its title:
    ///   k4s8  Uber Cash  benefit  Amex Platinum  due 2026-11-30
    static func ambiguousName(_ name: String, candidates: [JSONValue]) -> String {
        let head = _n(
            "\"%1$s\" names %2$d item; nothing was changed. Say which, by its id or more of its title:",
            "\"%1$s\" names %2$d items; nothing was changed. Say which, by its id or more of its title:", candidates.count
        ).filled(shown(name), String(candidates.count))
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
                Output.string(fields["card"]), due.isEmpty ? "" : _t("due %1$s").filled(Output.day(due)),
            ]
            lines.append("  " + parts.filter { !$0.isEmpty }.map(shown).joined(separator: "  "))
        }
        if items.count > 12 {
            lines.append("  " + _n("and %1$d more: reminderctl list", "and %1$d more: reminderctl list", items.count - 12).filled(String(items.count - 12)))
        }
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
        return _t("the daemon answered: %1$s").filled(spaced) + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }
}
