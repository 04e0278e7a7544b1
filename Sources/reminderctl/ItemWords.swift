import ReminderCore
import ReminderProtocol

/// An item's state in the words a person uses, the same in `list`, `show`, `summary`, `wallet`
/// and `undo`: the status in the kind's own words ("paid", "rebought", "renews"), and days
/// counted as "in 3 days" or "13 days ago" rather than a signed number.
extension Output {
    /// The item's status in its kind's words (`ItemStatus.words(for:)`); the raw status when
    /// the kind or the status is one this version does not know. A subscription whose free trial
    /// was cancelled is "cancelled": it has no occurrence left, so the wire says `expired` (the
    /// value every client knows, CONTRACT §6), and its `cancelled` date says why.
    static func status(_ item: ItemView) -> String {
        if item.kind == .subscription, let cancelled = item.more["cancelled"], cancelled != .null {
            // TRANSLATORS: a subscription's status in list and show once its free trial was cancelled.
            return _t("cancelled")
        }
        return item.kind.map { item.status.words(for: $0) } ?? item.status.rawValue
    }

    static func status(_ status: String, kind: String) -> String {
        guard let known = ItemStatus(rawValue: status), let kind = ItemKind(rawValue: kind) else { return status }
        return known.words(for: kind)
    }

    /// "today", "tomorrow", "in 3 days", "yesterday", "13 days ago".
    static func days(_ days: Int64) -> String {
        switch days {
        case 0: _t("today")
        case 1: _t("tomorrow")
        case -1: _t("yesterday")
        case ..<0: _n("%1$d days ago", "%1$d days ago", Int(-days)).filled(String(-days))
        default: _n("in %1$d days", "in %1$d days", Int(days)).filled(String(days))
        }
    }

    /// "next reminder Sat 2026-11-28 09:00", or "no reminder pending".
    static func nextReminder(_ item: ItemView) -> String {
        let next = sentence(item.nextReminder)
        return next.isEmpty ? _t("no reminder pending") : _t("next reminder %1$s").filled(next)
    }
}
