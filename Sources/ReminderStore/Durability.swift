/// What became of the changes a reply shows or acknowledges.
public enum Durability: Sendable, Equatable {
    case onDisk
    /// The flush that should have covered them failed: they are in the database, visible to
    /// every later read, but a power cut may lose them.
    case notConfirmed(reason: String)
}

/// What a reply waits on before it goes out: how many changes were made so far, and word when
/// the first of them are on disk. The socket server needs only this of the store, which adopts it.
public protocol DurabilityWaiting: AnyObject, Sendable {
    /// How many changes have been written so far.
    var commitCount: Int { get }
    /// Runs `body` once the first `count` changes are on disk, or their flush failed.
    func whenDurable(through count: Int, _ body: @escaping @Sendable (Durability) -> Void)
}

extension ReminderStore: DurabilityWaiting {}
