import ReminderCore
import ReminderJSON
import ReminderPlatform

/// `show`'s human form: an item as a person reads it — title first, then its fields in a fixed,
/// meaningful order with labels in words (not the JSON's camelCase keys in alphabetical order;
/// that form is `show --json`).
enum ItemCard {
    /// (JSON key, label), in the order shown.
    static let fields: [(key: String, label: String)] = [
        ("card", "Card"), ("amount", "Amount"), ("amountUsed", "Used so far"), ("value", "Value"),
        ("period", "Period"), ("every", "Renews every"), ("everyDays", "Every (days)"), ("status", "Status"),
        ("due", "Due"), ("daysLeft", "Days left"), ("next", "Next renewal"), ("expires", "Expires"),
        ("lastPurchased", "Last bought"), ("code", "Code"), ("category", "Category"), ("currency", "Currency"),
        ("nextReminder", "Next reminder"), ("lead", "Lead times"), ("notes", "Notes"), ("createdAt", "Added"),
    ]

    static func render(_ item: JSONValue) -> String {
        guard case .object(let values) = item else { return "" }
        var out =
            "\(Output.string(values["title"]))  (\(Output.string(values["id"])), \(Output.string(values["kind"])))\n"
        var rows: [(String, String)] = []
        var known: Set<String> = ["title", "id", "kind"]
        for (key, label) in fields {
            known.insert(key)
            guard let value = values[key], value != .null else { continue }
            let text =
                ["due", "nextReminder", "createdAt"].contains(key) ? Output.when(value) : Output.string(value)
            if !text.isEmpty { rows.append((label, text)) }
        }
        // Fields this version does not know yet: shown too, their keys spelled as words.
        for key in values.keys.sorted() where !known.contains(key) && values[key] != .null {
            rows.append((words(key), Output.string(values[key])))
        }
        if values["nextReminder"] == .null { rows.append(("Next reminder", "none pending")) }
        let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        for (label, text) in rows { out += "  \(label.padding(width))  \(text)\n" }
        return out
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
    /// The currency of items without their own: the config's.
    static let configuredCurrency: String = {
        (try? ConfigFile.load(explicitPath: nil).get())?.currency ?? "USD"
    }()

    /// An item's amount (a coupon's value) with its currency: "$15", "€9.99"; "" when it has none.
    static func amount(_ item: JSONValue) -> String {
        guard let value = item["amount"] ?? item["value"], case .string(let text) = value else { return "" }
        return amount(text, currency: item["currency"].map { string($0) })
    }

    /// An amount's text with its currency, the config's when nil; "" when there is none.
    static func amount(_ text: String?, currency: String?) -> String {
        guard let text, case .success(let money) = Money.parse(text) else { return "" }
        return money.formatted(currency: currency ?? configuredCurrency)
    }
}
