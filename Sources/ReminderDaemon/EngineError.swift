import ReminderCore
import ReminderStore

/// Why an engine command refused, in the engine's terms. The engine knows nothing of varlink:
/// the edge (`VarlinkEdge.swift`) names each case's `io.reminderd.Reminders` error and parameters,
/// and a pop-up's button shows the same words (`description`). The reasons are `Wording`s: the
/// error carries them in English and as templates, which reminderctl translates into its own
/// language and a refusal pop-up into the daemon's (`translated`).
enum EngineError: Error, CustomStringConvertible {
    /// The item's JSON is not a valid item (`InvalidItem`): the field at fault and why.
    case invalidItem(ReminderCoreError)
    /// A parameter of the command is wrong (`InvalidParameter`): its name (or path) and why.
    case invalidParameter(String, Wording)
    /// The command does not apply to the item as it is now (`NotApplicable`): its id and why.
    case notApplicable(String, Wording)
    /// No item has this id or id prefix (`NoSuchItem`).
    case noSuchItem(String)
    /// More than one item's id starts with this prefix (`AmbiguousId`): the prefix, the ids.
    case ambiguousId(String, matches: [String])
    /// More than one item's title is or starts with this name (`AmbiguousName`): the name, the
    /// ids (the edge adds each one's title, card and due date).
    case ambiguousName(String, matches: [String])
    /// What is added is tracked already (`Duplicate`): why, and the ids of the items that track it.
    case duplicate(Wording, matches: [String])
    /// No item has this card, but some have cards spelt nearly so (`NearCard`): the card, those names.
    case nearCard(String, known: [String])
    /// The item has no Done left to undo (`NothingToUndo`).
    case nothingToUndo(String)
    /// Sync cannot do what was asked (`SyncFailed`), in words.
    case syncFailed(Wording)
    /// The store refused or failed (`Internal`).
    case store(ReminderStoreError)
    /// Something that should not happen (`Internal`), in words.
    case `internal`(String)

    /// The refusal in one line, as a client prints the error the edge sends for it, so a
    /// button's refusal and the command's read the same.
    var description: String { varlinkError.description }

    /// `description` in the daemon's language, for a refusal pop-up.
    var translated: String { varlinkError.translatedDescription }
}
