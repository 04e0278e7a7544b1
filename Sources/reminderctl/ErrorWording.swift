import ReminderCore
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
        case names.noSuchItem:
            if text("id").isEmpty { return "no item id given; see the ids with: reminderctl list" }
            return "no item has the id \"\(text("id"))\"; see the ids with: reminderctl list --all"
        case names.nothingToUndo:
            return "nothing to undo for \(text("id")): it has no Done left to undo"
        case names.notApplicable:
            return "\(text("id")): \(HumanTime.inText(text("reason")))"
        case names.invalidConfig:
            // The daemon names the file as the field, and its reason names the file again.
            let (field, reason) = (text("field"), HumanTime.inText(text("reason")))
            let what = reason.hasPrefix("\(field): ") || field.isEmpty ? reason : "\(field): \(reason)"
            return "\(what) (the config in use is kept)"
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
