import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol

/// `show`'s human form: an item as a person reads it — title first, then its fields in a fixed,
/// meaningful order with labels in words (not the JSON's camelCase keys in alphabetical order;
/// that form is `show --json`).
enum ItemCard {
    /// (JSON key, label), in the order shown.
    static var fields: [(key: String, label: String)] {
        [
            ("card", _t("Card")), ("amount", _t("Amount")), ("amountIn", _t("Amount by month")),
            ("amountThisPeriod", _t("This period")), ("amountUsed", _t("Used so far")),
            ("amountLeft", _t("Left this period")), ("value", _t("Value")), ("period", _t("Period")),
            ("periodStart", _t("Periods from")), ("every", _t("Renews every")), ("everyDays", _t("Every (days)")),
            ("status", _t("Status")), ("due", _t("Due")), ("next", _t("Next renewal")),
            ("trialEnds", _t("Free trial ends")), ("cancelled", _t("Cancelled on")), ("expires", _t("Expires")),
            ("lastPurchased", _t("Last bought")), ("code", _t("Code")), ("category", _t("Category")),
            ("currency", _t("Currency")), ("nextReminder", _t("Next reminder")), ("lead", _t("Lead times")),
            ("repeatEvery", _t("Repeats every")), ("repeatTimes", _t("Repeats at most")), ("notes", _t("Notes")),
            ("createdAt", _t("Added")),
        ]
    }

    /// The rows are the item's fields, the known ones in `fields`' order and words, then any
    /// this version does not know. Every value is `shown`: a title, a note or a code is the
    /// user's (or another device's) text, with whatever controls it holds.
    static func render(_ item: ItemView) -> String {
        let values = item.wireObject
        var out = "\(shown(item.title))  (\(shown(item.id)), \(shown(item.kindName)))\n"
        var rows: [(String, String)] = []
        // The days left are said beside the due date ("in 3 days", "13 days ago").
        var known: Set<String> = ["title", "id", "kind", "daysLeft"]
        for (key, label) in fields {
            known.insert(key)
            guard let value = values[key], value != .null else { continue }
            var text = Output.string(value)
            switch key {
            case "amountIn": text = ItemCard.byMonth(value, currency: item.currency)
            case _ where ItemCard.money.contains(key): text = Output.amount(text, currency: item.currency)
            case "status": text = Output.status(item)
            case "due": text = Output.sentence(item.due) + (item.daysLeft.map { " (\(Output.days($0)))" } ?? "")
            case "nextReminder": text = Output.sentence(item.nextReminder)
            case "createdAt": text = Output.sentence(text)
            default: break
            }
            if text.isEmpty { continue }
            rows.append((label, shown(text)))
        }
        // Fields this version does not know yet: shown too, their keys spelled as words.
        for key in values.keys.sorted() where !known.contains(key) && values[key] != .null {
            rows.append((shown(words(key)), shown(Output.string(values[key]))))
        }
        // An item set aside as unreadable has no reminders to speak of.
        if item.nextReminder == nil, item.status != .unreadable {
            rows.append((_t("Next reminder"), _t("no reminder pending")))
        }
        let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        for (label, text) in rows {
            out += "  \(label)\(String(repeating: " ", count: width - DisplayWidth.of(label)))  \(text)\n"
        }
        return out
    }

    /// The fields that are money, shown with their currency ("$15").
    static let money: Set<String> = ["amount", "amountThisPeriod", "amountUsed", "amountLeft", "value"]

    /// `{"12": "35"}` → "Dec $35", months in order.
    static func byMonth(_ value: JSONValue, currency: String? = nil) -> String {
        guard case .object(let months) = value else { return Output.string(value) }
        return months.compactMap { key, amount -> (Int, String)? in
            guard let month = Int(key), (1...12).contains(month) else { return nil }
            let text = Output.string(amount)
            let money = Output.amount(text, currency: currency)
            return (month, money.isEmpty ? text : money)
        }.sorted { $0.0 < $1.0 }.map { "\(LocalDate.monthNames[$0.0 - 1].prefix(3)) \($0.1)" }.joined(separator: ", ")
    }

    /// `amountUsed` → "Amount used".
    static func words(_ key: String) -> String {
        var result = ""
        for character in key {
            if character.isUppercase { result += " " + character.lowercased() } else { result.append(character) }
        }
        return result.prefix(1).uppercased() + result.dropFirst()
    }
}

extension Output {
    /// An item's amount (a coupon's value) with its currency: "$15", "€9.99"; "" when it has none.
    static func amount(_ item: ItemView) -> String {
        amount(item.amountThisPeriod ?? item.amount ?? item.value, currency: item.currency)
    }

    /// An amount's text with its currency (`amount(_:currency:)`); "" when it is none.
    static func amount(_ text: String?, currency: String?) -> String {
        amount(text.flatMap { Money.parse($0).value }, currency: currency)
    }

    /// An amount with its currency — the daemon gives every item's, its own or the configured
    /// one; "" when there is no amount.
    static func amount(_ money: Money?, currency: String?) -> String {
        guard let money else { return "" }
        return currency.map { money.formatted(currency: $0, in: TerminalLocale.money) } ?? money.description
    }
}
