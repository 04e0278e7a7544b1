import CivilTime

/// What is left of a benefit's period: the one rule `summary`, `wallet` (through the item view's
/// `amountLeft`), the panel indicator and `report`'s value lost all ask, so a card's "left this
/// period" is the same figure wherever it is shown. It was worked out three ways before — two in
/// the daemon and one in `reminderctl` from the status's words — and they could drift apart.
extension Benefit {
    /// What is left of the period due on `due` (its last day): the period's amount (its month's,
    /// when amounts vary by month) less what is used of it, never below zero; nothing once that
    /// period is done. `used` is what the caller counted as used of it (`report`: the
    /// redemptions of a period that is over); by default the partial use this benefit records
    /// for the period (`amountUsed(inPeriodDueOn:)`). Nil when the benefit has no amount.
    public func amountLeft(inPeriodDueOn due: LocalDate, done: Bool, used: Money? = nil) -> Money? {
        guard let amount = amount(dueOn: due) else { return nil }
        if done { return .zero }
        return max(.zero, amount - (used ?? amountUsed(inPeriodDueOn: due) ?? .zero))
    }
}
