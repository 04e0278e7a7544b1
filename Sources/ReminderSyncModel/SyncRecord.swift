import CivilTime
import ReminderCore

/// What one task resource says about one item, in reminderd's terms: the item, which
/// occurrences are done, how much of the current period's credit is used, and the alarm
/// acknowledgements. The merge works on these; the VTODO writer and reader convert.
public struct SyncRecord: Hashable, Sendable {
    public var item: Item
    public var ledger: DoneLedger
    public var alarms: AlarmState

    public init(
        item: Item, ledger: DoneLedger = DoneLedger(), amountUsedPeriod: LocalDate? = nil, alarms: AlarmState = .init()
    ) {
        self.item = item
        self.ledger = ledger
        self.alarms = alarms
        if let amountUsedPeriod { self.amountUsedPeriod = amountUsedPeriod }
    }

    /// The benefit's used amount, nil for other kinds or when unset.
    public var amountUsed: Money? {
        get { benefit?.amountUsed }
        set { benefit?.amountUsed = newValue }
    }

    /// The last day of the period the benefit's `amountUsed` counts toward (the item's own
    /// `Benefit.amountUsedPeriod`, written as `X-REMINDERD-PERIOD-END`): a value from an earlier
    /// period loses to any value of a later one.
    public var amountUsedPeriod: LocalDate? {
        get { benefit?.amountUsedPeriod }
        set { benefit?.amountUsedPeriod = newValue }
    }

    /// The item's benefit, nil for other kinds; setting it on another kind changes nothing.
    private var benefit: Benefit? {
        get {
            if case .benefit(let benefit) = item.schedule { return benefit }
            return nil
        }
        set {
            guard case .benefit = item.schedule, let newValue else { return }
            item.schedule = .benefit(newValue)
        }
    }
}

/// Dismiss and snooze as Thunderbird, Tasks.org (`X-MOZ-LASTACK`, `X-MOZ-SNOOZE-TIME`) and
/// Evolution (RFC 9074 `ACKNOWLEDGED`) write them. The newest acknowledgement wins a merge.
public struct AlarmState: Hashable, Sendable {
    /// Unix seconds of the last dismiss, snooze or Done.
    public var lastAcknowledged: Int64?
    /// Unix seconds the alarm is snoozed until.
    public var snoozedUntil: Int64?

    public init(lastAcknowledged: Int64? = nil, snoozedUntil: Int64? = nil) {
        self.lastAcknowledged = lastAcknowledged
        self.snoozedUntil = snoozedUntil
    }
}
