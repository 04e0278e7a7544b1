import CivilTime
import ReminderCore
import ReminderJSON

/// A field both sides changed since the last agreement: the remote value was taken, and the
/// local one is kept here for history and a pop-up, so nothing is silently lost.
public struct SyncConflict: Hashable, Sendable {
    /// The item's field (its JSON key, as `reminderctl` names fields).
    public var field: String
    /// Text of the JSON values; empty when the side had none.
    public var local: String
    public var remote: String

    public init(field: String, local: String, remote: String) {
        self.field = field
        self.local = local
        self.remote = remote
    }
}

/// The 3-way merge of a record changed on this device (`local`) and on the server (`remote`)
/// since both last agreed (`base`; nil when they never did, as on a first join or a
/// resurrection).
public enum SyncMerge {
    public static func merge(base: SyncRecord?, local: SyncRecord, remote: SyncRecord, zone: TimeZoneRules)
        -> (record: SyncRecord, conflicts: [SyncConflict])
    {
        var (item, conflicts) = mergeContent(base: base?.item, local: local.item, remote: remote.item, zone: zone)
        var record = SyncRecord(item: item)
        record.ledger = DoneLedger.merge(base: base?.ledger ?? DoneLedger(), local: local.ledger, remote: remote.ledger)
        record.alarms = pick(base: base?.alarms, local: local.alarms, remote: remote.alarms) { a, b in
            (a.lastAcknowledged ?? .min, a.snoozedUntil ?? .min) < (b.lastAcknowledged ?? .min, b.snoozedUntil ?? .min)
        }
        typealias Used = (amount: Money?, period: LocalDate?)
        var used = pick(
            base: base.map { Used($0.amountUsed, $0.amountUsedPeriod) },
            local: Used(local.amountUsed, local.amountUsedPeriod),
            remote: Used(remote.amountUsed, remote.amountUsedPeriod),
            same: { $0.amount == $1.amount && $0.period == $1.period }
        ) { a, b in
            // Within one period the larger amount (spending only grows); a later period wins.
            (a.period ?? LocalDate(dayNumber: 0), a.amount ?? .zero) < (
                b.period ?? LocalDate(dayNumber: 0), b.amount ?? .zero
            )
        }
        // A partial use of a period the merged ledger has done was taken up by that Done (a Done
        // clears the used amount where it is made): kept, it would read as used on the devices
        // that merged and be dropped by the readers of the server's copy, which never agree.
        let usedUp =
            used.period.map { record.ledger.contains(LocalDateTime(date: $0, time: FireTimeRules.endOfDay)) } ?? false
        if usedUp { used = (nil, nil) }
        if case .benefit(var benefit) = item.schedule {
            benefit.amountUsed = used.amount.map { amount in benefit.largestAmount.map { min(amount, $0) } ?? amount }
            benefit.amountUsedPeriod = benefit.amountUsed == nil ? nil : used.period
            item.schedule = .benefit(benefit)
            record.item = item
        }
        return (record, conflicts)
    }

    /// One side changed → take it; both → the larger by `order` (the newest acknowledgement,
    /// the later period's or larger amount, the later Done of a ledger entry).
    private static func pick<T>(base: T?, local: T, remote: T, same: (T, T) -> Bool, order: (T, T) -> Bool) -> T {
        if same(local, remote) { return remote }
        if let base, same(local, base) { return remote }
        if let base, same(remote, base) { return local }
        return order(local, remote) ? remote : local
    }

    static func pick<T: Equatable>(base: T?, local: T, remote: T, order: (T, T) -> Bool) -> T {
        pick(base: base, local: local, remote: remote, same: ==, order: order)
    }

    /// Per field of the item's JSON form: one side changed → take it; both → remote, with the
    /// local value as a conflict; a rebuy's purchase date → the later one (buying again is not a
    /// disagreement). A merge whose fields do not make a valid item together (say, a kind
    /// changed on one side and a field of the old kind on the other) takes the remote item whole.
    static func mergeContent(base: Item?, local: Item, remote: Item, zone: TimeZoneRules) -> (Item, [SyncConflict]) {
        let (b, l, r) = (fields(base), fields(local), fields(remote))
        var merged: [String: JSONValue] = [:]
        var conflicts: [SyncConflict] = []
        for key in Set(l.keys).union(r.keys).union(b.keys).sorted() where !usedKeys.contains(key) {
            let (bv, lv, rv) = (b[key], l[key], r[key])
            var value = rv
            if lv == rv || lv == bv {
                value = rv
            } else if rv == bv {
                value = lv
            } else if key == "lastPurchased", case .string(let x)? = lv, case .string(let y)? = rv {
                value = .string(max(x, y))
            } else {
                conflicts.append(SyncConflict(field: key, local: text(lv), remote: text(rv)))
            }
            merged[key] = value
        }
        guard let item = try? Item(json: .object(merged), context: .init(zone: zone, present: .unchecked)) else {
            let whole = Set(l.keys).union(r.keys).sorted().filter { l[$0] != r[$0] && !usedKeys.contains($0) }
            return (remote, whole.map { SyncConflict(field: $0, local: text(l[$0]), remote: text(r[$0])) })
        }
        return (item, conflicts)
    }

    /// A benefit's used amount and its period: merged as one pair (`merge`), not field by field.
    static let usedKeys: Set<String> = ["amountUsed", "amountUsedPeriod"]

    private static func fields(_ item: Item?) -> [String: JSONValue] {
        guard case .object(let fields)? = item?.json else { return [:] }
        return fields
    }

    private static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: return text
        case nil: return ""
        case let other?: return String(decoding: other.serialized(), as: UTF8.self)
        }
    }
}
