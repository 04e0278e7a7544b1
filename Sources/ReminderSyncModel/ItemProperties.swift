import CivilTime
import ICalendar
import ReminderCore
import ReminderJSON

/// reminderd's own fields as `X-REMINDERD-*` properties: the item's JSON keys (CONTRACT §2) in
/// upper case with dashes (`amountUsed` → `X-REMINDERD-AMOUNT-USED`), plain tokens or decimals.
/// Going through the JSON form keeps one validator: a resource's fields are checked exactly as
/// `add` and `import` check them.
enum ItemProperties {
    static let prefix = "X-REMINDERD-"

    /// The JSON keys carried as X- properties. The title is in `SUMMARY`, the notes in
    /// `DESCRIPTION`, a coupon's expiry in `DUE`: what a phone shows and edits. A key added later
    /// goes at the end (`periodStart`): a version without it keeps its property untouched, as
    /// any property it does not know.
    static let keys = [
        "kind", "id", "currency", "card", "amount", "period", "amountUsed", "every", "next", "due", "code", "value",
        "category", "everyDays", "lastPurchased", "lead", "createdAt", "periodStart",
        "amountIn", "repeatEvery", "repeatTimes", "trialEnds", "cancelled",
    ]

    /// `amountUsed` → `X-REMINDERD-AMOUNT-USED`; `id` is `ITEM-ID` (the resource's UID is
    /// the item's identity across devices; the short id is a local alias).
    static func propertyName(_ key: String) -> String {
        if key == "id" { return prefix + "ITEM-ID" }
        var name = prefix
        for character in key {
            if character.isUppercase { name.append("-") }
            name += character.uppercased()
        }
        return name
    }

    /// The parameter that says which period `AMOUNT-USED` counts toward.
    static let periodParameter = "X-REMINDERD-PERIOD-END"

    /// Writes `record`'s fields into `todo`, each where it stands (new ones appended), and
    /// removes the ones the item no longer has. A used amount without a period counts toward
    /// `currentPeriod`.
    /// `keys` is the list this version knows (a test passes an older version's).
    static func write(
        _ record: SyncRecord, currentPeriod: LocalDate?, into todo: inout Component, keys: [String] = keys
    ) {
        guard case .object(var fields) = record.item.json else { return }
        fields["title"] = nil
        fields["notes"] = nil
        fields["expires"] = nil
        for key in keys {
            let name = propertyName(key)
            switch fields[key] {
            case .string(let text)?:
                var property = todo.property(name) ?? Property(name, "")
                property.text = text
                if key == "amountUsed" {
                    property.setParameter(periodParameter, (record.amountUsedPeriod ?? currentPeriod).map(compact))
                }
                todo.set(property)
            case .integer(let number)?: todo.set(name, String(number))
            case .object(let months)?:
                // Amounts by month: `12=35,6=20` (month numbers, months in order).
                let pairs = months.compactMap { key, value in
                    if case .string(let amount) = value, let month = Int(key) { (month, amount) } else { nil }
                }
                todo.set(name, pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: ","))
            case .array(let elements)?:
                // A list value, comma-separated (RFC 5545 §3.1.1); durations hold no commas.
                todo.set(
                    name, elements.compactMap { if case .string(let s) = $0 { s } else { nil } }.joined(separator: ","))
            default: todo.remove(name)
            }
        }
        todo.set("SUMMARY", TextValue.escape(summary(of: record.item)))
        if let notes = record.item.notes {
            todo.set("DESCRIPTION", TextValue.escape(notes))
        } else {
            todo.remove("DESCRIPTION")
        }
    }

    /// The item's JSON fields from `todo`'s properties, or nil when it has no `X-REMINDERD-KIND`.
    static func read(_ todo: Component) -> [String: JSONValue]? {
        guard todo.property(propertyName("kind")) != nil else { return nil }
        var fields: [String: JSONValue] = [:]
        for key in keys {
            guard let property = todo.property(propertyName(key)) else { continue }
            switch key {
            case "everyDays", "repeatTimes": fields[key] = Int64(property.value).map(JSONValue.integer) ?? .string(property.text)
            case "amountIn":
                // `12=35,6=20`; a part without `=` is kept whole, for the validator to name.
                var months: [String: JSONValue] = [:]
                for part in property.value.split(separator: ",") {
                    let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                    months[pair[0]] = pair.count == 2 ? .string(pair[1]) : .null
                }
                fields[key] = .object(months)
            case "lead":
                let parts = property.value.split(separator: ",", omittingEmptySubsequences: false)
                fields[key] = .array(parts.map { .string(String($0)) })
            default: fields[key] = .string(property.text)
            }
        }
        return fields
    }

    /// `2026-11-30` → `20261130`.
    static func compact(_ date: LocalDate) -> String {
        DateTimeValue(year: date.year, month: date.month, day: date.day).description
    }

    /// What a phone's list shows: "Uber Cash $15 — Amex Platinum" (the card left out when the
    /// title names it already: "Amex Gold annual fee $325").
    static func summary(of item: Item) -> String {
        let (money, card) = summaryParts(of: item)
        guard let card, !item.title.lowercased().contains(card.lowercased()) else { return item.title + money }
        return item.title + money + " — " + card
    }

    /// The title in `summary`: what is left without the amount and card reminderd appends, or the
    /// whole text when a phone rewrote it.
    static func title(in summary: String, of item: Item) -> String {
        let (money, card) = summaryParts(of: item)
        if let card, case let tail = money + " — " + card, summary.hasSuffix(tail), summary.count > tail.count {
            return String(summary.dropLast(tail.count))
        }
        let title = summary.hasSuffix(money) ? String(summary.dropLast(money.count)) : summary
        return title.isEmpty ? summary : title
    }

    /// `" $15"` (empty without an amount) and the card.
    private static func summaryParts(of item: Item) -> (money: String, card: String?) {
        let currency = item.currency ?? "USD"
        var money: Money?
        var card: String?
        switch item.schedule {
        case .benefit(let b): (money, card) = (b.amount, b.card)
        case .subscription(let s): (money, card) = (s.amount, s.card)
        case .fee(let f): (money, card) = (f.amount, f.card)
        case .coupon(let c): money = c.value
        case .rebuy: break
        }
        return (money.map { " " + $0.formatted(currency: currency) } ?? "", card)
    }
}
