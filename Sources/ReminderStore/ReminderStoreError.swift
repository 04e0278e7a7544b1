/// What the store refuses or fails at, naming the database and the reason.
public enum ReminderStoreError: Error, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case database(reason: String)
    case corruptItem(id: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the store \(path): \(reason)"
        case .database(let reason): return "store: \(reason)"
        case .corruptItem(let id, let reason): return "stored item \(id) is unreadable: \(reason)"
        }
    }
}
