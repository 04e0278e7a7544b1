/// Where an item stands, as `list`, `show` and `summary` report it (its raw value on the wire).
public enum ItemStatus: String, Sendable, Hashable, CaseIterable {
    case available
    /// Due in 7 days or less.
    case expiring
    /// The current occurrence is done.
    case used
    /// A coupon (or any item without further occurrences) that passed without Done.
    case expired
    /// A rebuy past its run-out date.
    case overdue
    /// The stored JSON cannot be read: set aside until removed.
    case unreadable

    /// Used or expired: nothing left to act on.
    public var isSettled: Bool { self == .used || self == .expired }
}
