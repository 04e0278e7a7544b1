import ReminderJSON
import ReminderProtocol

/// One `SyncPulled` call's worth of the pull: resources with their bodies and removed hrefs.
public struct PulledBatch: Equatable, Sendable {
    public var resources: [SyncResource] = []
    public var removed: [String] = []

    public var isEmpty: Bool { resources.isEmpty && removed.isEmpty }
}

/// Splits what a pull found into `SyncPulled` calls of at most `limit` bytes of JSON each.
/// reminderd refuses a request over 1 MiB and closes the connection; ~512 KiB keeps every call
/// well under that whatever the envelope adds, and bounds what reminderd merges in one
/// transaction. Entries are measured as they will be written (escaping included), so a body of
/// many short lines is not underestimated.
public struct PulledBatches {
    /// ~512 KiB: half the daemon's request limit.
    public static let defaultLimit = 512 << 10
    /// One resource larger than this cannot go in any call (the daemon's limit less the envelope).
    public static let largestEntry = VarlinkFraming.maximumMessageSize - 4096

    public let limit: Int
    private var batch = PulledBatch()
    private var size = 0

    public init(limit: Int = PulledBatches.defaultLimit) { self.limit = limit }

    /// Adds a resource; returns the batch to send first when it would not fit in the current one.
    /// A resource too large for any call is refused with its size, for the pass's report.
    public mutating func add(_ resource: SyncResource) throws(OversizedResource) -> PulledBatch? {
        let bytes = resource.json.serialized().count + 1
        guard bytes <= Self.largestEntry else { throw OversizedResource(href: resource.href, bytes: bytes) }
        let full = take(ifAdding: bytes)
        batch.resources.append(resource)
        return full
    }

    public mutating func remove(_ href: String) -> PulledBatch? {
        let full = take(ifAdding: JSONValue.string(href).serialized().count + 1)
        batch.removed.append(href)
        return full
    }

    /// What is left: the last call's batch, the one that carries the sync token.
    public mutating func finish() -> PulledBatch {
        defer { (batch, size) = (PulledBatch(), 0) }
        return batch
    }

    private mutating func take(ifAdding bytes: Int) -> PulledBatch? {
        var full: PulledBatch? = nil
        if !batch.isEmpty && size + bytes > limit {
            full = batch
            (batch, size) = (PulledBatch(), 0)
        }
        size += bytes
        return full
    }
}

/// A resource whose JSON would exceed what reminderd takes in one call.
public struct OversizedResource: Error, Equatable, Sendable {
    public let href: String
    public let bytes: Int
}
