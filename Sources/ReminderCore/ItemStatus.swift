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

    /// The status in the words of `kind`, as `list`, `show`, `summary` and `wallet` print it (the
    /// raw value stays the wire's): a subscription renews and is paid, a fee is due and paid, a
    /// rebuy runs out and is rebought or overdue, a coupon or a benefit is available and used or
    /// expired — the words of the pop-up's buttons and of `done`.
    public func words(for kind: ItemKind) -> String {
        switch (self, kind) {
        case (.used, .subscription), (.used, .fee): return _t("paid")
        case (.used, .rebuy): return _t("rebought")
        case (.available, .subscription): return _t("renews")
        case (.expiring, .subscription): return _t("renews soon")
        case (.available, .fee): return _t("due")
        case (.expiring, .fee): return _t("due soon")
        case (.available, .rebuy): return _t("in stock")
        case (.expiring, .rebuy): return _t("runs out soon")
        case (.available, _): return _t("available")
        case (.expiring, _): return _t("expiring")
        case (.used, _): return _t("used")
        case (.expired, _): return _t("expired")
        case (.overdue, _): return _t("overdue")
        case (.unreadable, _): return _t("unreadable")
        }
    }
}
