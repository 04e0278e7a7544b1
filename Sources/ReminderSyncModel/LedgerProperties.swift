import CivilTime
import ICalendar
import ReminderCore

/// The Done ledger as `X-REMINDERD-DONE` properties, one per done occurrence, oldest first.
enum LedgerProperties {
    static let name = ItemProperties.prefix + "DONE"

    /// Replaces the ledger's properties: they go after the other properties, in ledger order.
    static func write(_ ledger: DoneLedger, into todo: inout Component) {
        todo.remove(name)
        for entry in ledger.entries { todo.properties.append(Property(name, text(of: entry))) }
    }

    /// `20261130T235900/20261124T140000Z/15`.
    static func text(of entry: DoneEntry) -> String {
        DateTimeValue(local: entry.occurrence, zoneID: nil).description + "/"
            + DateTimeValue.utc(entry.doneAt).description + "/" + (entry.amount?.description ?? "")
    }

    /// Every entry of `todo`'s ledger; a malformed one is an error naming it.
    static func read(_ todo: Component) throws(ICalendarError.Value) -> DoneLedger {
        var ledger = DoneLedger()
        for property in todo.properties(name) {
            let parts = property.value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let occurrence = DateTimeValue(text: parts[0]), !occurrence.isUTC,
                let occurrenceTime = occurrence.wallClock, let done = DateTimeValue(text: parts[1]), done.isUTC,
                let doneTime = done.wallClock
            else {
                throw .init("\(name):\(property.value) is not <occurrence due>/<done at, UTC>/<amount>")
            }
            var amount: Money?
            if !parts[2].isEmpty {
                guard case .success(let parsed) = Money.parse(parts[2]) else {
                    throw .init("\(name):\(property.value): \"\(parts[2])\" is not a decimal amount")
                }
                amount = parsed
            }
            ledger.record(DoneEntry(occurrence: occurrenceTime, doneAt: doneTime.localSeconds, amount: amount))
        }
        return ledger
    }
}
