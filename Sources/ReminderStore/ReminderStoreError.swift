/// What the store refuses or fails at, naming the database and the reason.
public enum ReminderStoreError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case database(reason: String)
    /// A stored row holds a value of the wrong type (edited by hand, a bad sector): the row is
    /// left as it is, and what needed it refused.
    case unreadableRow(reason: String)
    /// The file has tables but not reminderd's schema.
    case foreign(tables: [String])
    /// A newer reminderd migrated the file: these schema steps are unknown to this build.
    case newer(unknownSteps: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the store \(path): \(reason)"
        case .database(let reason): return "store: \(reason)"
        case .unreadableRow(let reason):
            return "store: a stored row cannot be read (\(reason)); it is left as it is — repair or delete it with sqlite3"
        case .foreign(let tables):
            return
                "it is not a reminderd database (tables \(tables.joined(separator: ", ")), no reminderd schema); "
                + "left untouched — move it away or start reminderd with --store PATH"
        case .newer(let steps):
            return
                "a newer reminderd wrote it (schema steps \(steps.joined(separator: ", ")) are unknown to this version); "
                + "left untouched — run the newer reminderd"
        }
    }
}
