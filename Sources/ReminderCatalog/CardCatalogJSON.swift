import CivilTime
import ReminderCore
import ReminderJSON

extension CardCatalog {
    /// Reads and checks a catalog document: every card has an issuer, a name and a fee ≥ 0;
    /// credits have positive amounts and valid periods; ids are unique. `path` prefixes fields
    /// in errors. A user catalog may leave out `version`, `source` and its cards' `checked`.
    /// The catalog's date is its entries' (`checked`): a top-level `updated` is refused in the
    /// bundled one and, in a user's file written for an older reminderctl, ignored.
    public init(json: JSONValue, path: String, requireHeader: Bool = true) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: path)
        let version = try fields.integer("version")
        if requireHeader, version == nil {
            throw .missingField(field: fields.fieldPath("version"), reason: "the data format's version")
        }
        if try fields.parsed("updated", LocalDate.parse) != nil, requireHeader {
            throw .invalidValue(
                field: fields.fieldPath("updated"),
                reason: "the catalog is dated by its cards' \"checked\" dates; give each card one instead")
        }
        let source = try fields.string("source")
        if requireHeader, source == nil {
            throw .missingField(field: fields.fieldPath("source"), reason: "where the data comes from")
        }
        var cards: [Card] = []
        for (index, element) in (try fields.array("cards") ?? []).enumerated() {
            let card = try Card(
                json: element, path: fields.fieldPath("cards[\(index)]"), requireChecked: requireHeader)
            if cards.contains(where: { $0.id == card.id }) {
                throw .invalidValue(
                    field: fields.fieldPath("cards[\(index)].id"), reason: "\"\(card.id)\" is used twice")
            }
            cards.append(card)
        }
        var subscriptions: [SubscriptionTemplate] = []
        for (index, element) in (try fields.array("subscriptions") ?? []).enumerated() {
            let template = try SubscriptionTemplate(json: element, path: fields.fieldPath("subscriptions[\(index)]"))
            if subscriptions.contains(where: { $0.id == template.id }) {
                throw .invalidValue(
                    field: fields.fieldPath("subscriptions[\(index)].id"), reason: "\"\(template.id)\" is used twice")
            }
            subscriptions.append(template)
        }
        try fields.rejectUnknown()
        self.init(version: Int(version ?? 1), source: source ?? "", cards: cards, subscriptions: subscriptions)
    }
}

extension CardCatalog.Card {
    /// `requireChecked`: the bundled catalog's cards each say when they were checked.
    init(json: JSONValue, path: String, requireChecked: Bool) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: path)
        id = try catalogID(&fields)
        issuer = try requiredText(&fields, "issuer")
        name = try requiredText(&fields, "name")
        annualFee = try fields.required("annualFee", "the annual fee as a decimal string", Money.parse)
        checked = try fields.parsed("checked", LocalDate.parse)
        if requireChecked, checked == nil {
            throw .missingField(
                field: fields.fieldPath("checked"), reason: "when its fee and credits were checked, YYYY-MM-DD")
        }
        source = try fields.string("source")
        credits = []
        for (index, element) in (try fields.array("credits") ?? []).enumerated() {
            let credit = try CardCatalog.Credit(json: element, path: fields.fieldPath("credits[\(index)]"))
            if credits.contains(where: { $0.id == credit.id }) {
                throw .invalidValue(
                    field: fields.fieldPath("credits[\(index)].id"), reason: "\"\(credit.id)\" is used twice")
            }
            credits.append(credit)
        }
        try fields.rejectUnknown()
    }
}

extension CardCatalog.Credit {
    init(json: JSONValue, path: String) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: path)
        id = try catalogID(&fields)
        title = try requiredText(&fields, "title")
        amount = try fields.required("amount", "a positive decimal amount", Money.parse)
        guard amount > .zero else {
            throw .invalidValue(field: fields.fieldPath("amount"), reason: "must be more than zero")
        }
        period = try fields.required("period", "monthly, quarterly, semiannual or annual", Benefit.Period.parse)
        amountIn = try Benefit.decodeAmountIn(&fields)
        annualAmount = try fields.parsed("annualAmount", Money.parse)
        if let text = try fields.string("resets") {
            guard let value = Resets(rawValue: text) else {
                throw .invalidValue(
                    field: fields.fieldPath("resets"), reason: "\"\(text)\": use calendar or anniversary")
            }
            resets = value
        } else {
            resets = .calendar
        }
        notes = try fields.string("notes")
        checked = try fields.parsed("checked", LocalDate.parse)
        source = try fields.string("source")
        try fields.rejectUnknown()
    }
}

extension CardCatalog.SubscriptionTemplate {
    init(json: JSONValue, path: String) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: path)
        id = try catalogID(&fields)
        title = try requiredText(&fields, "title")
        amount = try fields.required("amount", "the usual price as a decimal string", Money.parse)
        every = try fields.required("every", "how often it renews, like 1mo") {
            CalendarDuration.parse($0, rules: .renewal)
        }
        trialDays = try fields.integer("trialDays").map(Int.init)
        if let trialDays, !(1...365).contains(trialDays) {
            throw .invalidValue(field: fields.fieldPath("trialDays"), reason: "\(trialDays) is not between 1 and 365")
        }
        try fields.rejectUnknown()
    }
}

private func catalogID(_ fields: inout FieldReader) throws(ReminderCoreError) -> String {
    let id = try requiredText(&fields, "id")
    guard id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }), id.allSatisfy(\.isASCII) else {
        throw .invalidValue(field: fields.fieldPath("id"), reason: "\"\(id)\": use lowercase letters, digits and -")
    }
    return id
}

private func requiredText(_ fields: inout FieldReader, _ key: String) throws(ReminderCoreError) -> String {
    guard let text = try fields.string(key), !text.isEmpty else {
        throw .missingField(field: fields.fieldPath(key), reason: "text")
    }
    return text
}
