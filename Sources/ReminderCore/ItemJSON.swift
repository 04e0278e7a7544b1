import CivilTime
import ReminderJSON

/// Items to and from their JSON form (CONTRACT §2), validating every field on the way in.
extension Item {
    /// What validation needs besides the item itself.
    public struct DecodingContext: Sendable {
        /// Whose local dates `lastPurchased` and `createdAt` are compared in.
        public var zone: TimeZoneRules
        /// The creation time assumed when the item has none (`plan` uses `--from`).
        public var defaultCreatedAt: Int64?
        /// What a `lastPurchased` in the future is judged against.
        public var present: Present

        /// The day after which a purchase date is refused as being in the future.
        public enum Present: Sendable {
            /// The item's creation (or `defaultCreatedAt`): input with no clock of its own, as `plan`'s.
            case creation
            /// The given instant: input arriving now (add, edit, import).
            case instant(Int64)
            /// Not judged: an item read back from storage was judged when it came in, and a rebuy
            /// bought again after it was added (or a clock set back) must not make it unreadable.
            case unchecked
        }

        public init(zone: TimeZoneRules, defaultCreatedAt: Int64? = nil, present: Present = .creation) {
            self.zone = zone
            self.defaultCreatedAt = defaultCreatedAt
            self.present = present
        }
    }

    /// Decodes and validates one item; `path` prefixes every field named in an error.
    public init(json: JSONValue, path: String = "", context: DecodingContext) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: path)
        let kindText = try fields.string("kind")
        guard let kindText else {
            throw .missingField(
                field: fields.fieldPath("kind"),
                reason: "one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let kind = ItemKind(rawValue: kindText) else {
            throw .invalidValue(
                field: fields.fieldPath("kind"),
                reason:
                    "\(quoted(kindText)) is not a kind; use \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let id = try fields.string("id")
        if let id { try Item.validateID(id, field: fields.fieldPath("id")) }
        let title = try fields.string("title")
        guard let title else { throw .missingField(field: fields.fieldPath("title"), reason: "1 to 100 characters") }
        try Item.validateText(title, field: fields.fieldPath("title"), range: 1...100)
        let notes = try fields.string("notes")
        if let notes { try Item.validateText(notes, field: fields.fieldPath("notes"), range: 0...500, multiline: true) }
        let lead = try Item.decodeLeads(&fields)
        let (repeatEvery, repeatTimes) = try Item.decodeRepeat(&fields)
        let createdAt = try fields.parsed("createdAt", Timestamp.parse)
        let effectiveCreatedAt = createdAt ?? context.defaultCreatedAt
        let currency = try fields.string("currency")
        if let currency { try Item.validateCurrency(currency, field: fields.fieldPath("currency")) }
        let schedule: Schedule
        switch kind {
        case .benefit:
            let card = try Item.shortText(&fields, "card")
            let amount = try fields.parsed("amount", Money.parse)
            let period = try fields.required("period", "monthly, quarterly, semiannual or annual", Benefit.Period.parse)
            let used = try fields.parsed("amountUsed", Money.parse)
            let usedPeriod = try fields.parsed("amountUsedPeriod", LocalDate.parse)
            if usedPeriod != nil, used == nil {
                throw .invalidValue(
                    field: fields.fieldPath("amountUsedPeriod"),
                    reason: "only beside amountUsed (the period it counts toward)")
            }
            let periodStart = try fields.parsed("periodStart", LocalDate.parse)
            let amountIn = try Benefit.decodeAmountIn(&fields)
            let benefit = Benefit(
                card: card, amount: amount, period: period, amountUsed: used, amountUsedPeriod: usedPeriod,
                periodStart: periodStart, amountIn: amountIn)
            if let used, let most = benefit.largestAmount, used > most {
                throw .invalidValue(
                    field: fields.fieldPath("amountUsed"),
                    reason: "\(used) is more than the amount \(most)\(amountIn.isEmpty ? "" : " of any month")")
            }
            schedule = .benefit(benefit)
        case .subscription:
            let amount = try fields.parsed("amount", Money.parse)
            let every = try fields.required("every", "how often it renews, like 1mo") {
                CalendarDuration.parse($0, rules: .renewal)
            }
            let next = try fields.required("next", "the next renewal date, YYYY-MM-DD", LocalDate.parse)
            let card = try Item.shortText(&fields, "card")
            let trialEnds = try fields.parsed("trialEnds", LocalDate.parse)
            let cancelled = try fields.parsed("cancelled", LocalDate.parse)
            if cancelled != nil, trialEnds == nil {
                throw .invalidValue(
                    field: fields.fieldPath("cancelled"), reason: "only beside trialEnds (the trial cancelled)")
            }
            schedule = .subscription(
                Subscription(
                    amount: amount, every: every, next: next, card: card, trialEnds: trialEnds, cancelled: cancelled)
            )
        case .coupon:
            let expires = try fields.required("expires", "a date or local date-time", Coupon.Expiry.parse)
            let code = try Item.shortText(&fields, "code")
            let value = try fields.parsed("value", Money.parse)
            let category = try Item.shortText(&fields, "category")
            let taskList = try fields.boolean("taskList") ?? false
            schedule = .coupon(
                Coupon(expires: expires, code: code, value: value, category: category, taskList: taskList))
        case .fee:
            let card = try Item.shortText(&fields, "card")
            let amount = try fields.parsed("amount", Money.parse)
            let due = try fields.required("due", "the fee's due date, YYYY-MM-DD", LocalDate.parse)
            schedule = .fee(Fee(card: card, amount: amount, due: due))
        case .rebuy:
            guard let everyDays = try fields.integer("everyDays") else {
                throw .missingField(field: fields.fieldPath("everyDays"), reason: "a whole number of days, 1 to 365")
            }
            guard (1...365).contains(everyDays) else {
                throw .invalidValue(
                    field: fields.fieldPath("everyDays"), reason: "\(everyDays) is not between 1 and 365")
            }
            let last = try fields.required("lastPurchased", "the date it was last bought, YYYY-MM-DD", LocalDate.parse)
            let present: Int64? =
                switch context.present {
                case .creation: effectiveCreatedAt
                case .instant(let now): now
                case .unchecked: nil
                }
            if let present {
                let today = context.zone.localDateTime(at: present).date
                if last > today {
                    throw .invalidValue(
                        field: fields.fieldPath("lastPurchased"), reason: "\(last) is in the future (today is \(today))"
                    )
                }
            }
            let category = try Item.shortText(&fields, "category")
            schedule = .rebuy(Rebuy(everyDays: Int(everyDays), lastPurchased: last, category: category))
        }
        try Item.refuseOtherKindsWorth(fields, kind: kind)
        try fields.rejectUnknown()
        self.init(
            id: id, title: title, notes: notes, lead: lead, createdAt: createdAt, currency: currency, schedule: schedule,
            repeatEvery: repeatEvery, repeatTimes: repeatTimes)
    }

    /// A coupon's worth is its `value`, every other kind's its `amount`: the other word is not
    /// an unknown field but a mix-up, and the refusal names the right one (and its option).
    static func refuseOtherKindsWorth(_ fields: FieldReader, kind: ItemKind) throws(ReminderCoreError) {
        let present = { (key: String) in fields.fields[key].map { $0 != .null } ?? false }
        if kind == .coupon, present("amount") {
            throw .invalidValue(
                field: fields.fieldPath("amount"),
                reason: "a coupon has a value, not an amount: give value (reminderctl: --value)")
        }
        if kind != .coupon, present("value") {
            throw .invalidValue(
                field: fields.fieldPath("value"),
                reason: "only a coupon has a value; a \(kind.rawValue) has an amount (reminderctl: --amount)")
        }
    }

    /// The item in its §2 JSON form, with only the fields that are set.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["kind": .string(kind.rawValue), "title": .string(title)]
        func put(_ key: String, _ value: CustomStringConvertible?) {
            if let value { object[key] = .string(value.description) }
        }
        put("id", id)
        put("notes", notes)
        if let lead { object["lead"] = .array(lead.map { .string($0.description) }) }
        if let createdAt { object["createdAt"] = .string(Timestamp.format(createdAt, in: .utc)) }
        put("currency", currency)
        put("repeatEvery", repeatEvery)
        if let repeatTimes { object["repeatTimes"] = .integer(Int64(repeatTimes)) }
        switch schedule {
        case .benefit(let b):
            put("card", b.card)
            put("amount", b.amount)
            put("period", b.period.rawValue)
            put("amountUsed", b.amountUsed)
            if b.amountUsed != nil { put("amountUsedPeriod", b.amountUsedPeriod) }
            put("periodStart", b.periodStart)
            if !b.amountIn.isEmpty { object["amountIn"] = Benefit.amountInJSON(b.amountIn) }
        case .subscription(let s):
            put("amount", s.amount)
            put("every", s.every)
            put("next", s.next)
            put("card", s.card)
            put("trialEnds", s.trialEnds)
            put("cancelled", s.cancelled)
        case .coupon(let c):
            put("expires", c.expires)
            put("code", c.code)
            put("value", c.value)
            put("category", c.category)
            if c.taskList { object["taskList"] = .bool(true) }
        case .fee(let f):
            put("card", f.card)
            put("amount", f.amount)
            put("due", f.due)
        case .rebuy(let r):
            object["everyDays"] = .integer(Int64(r.everyDays))
            put("lastPurchased", r.lastPurchased)
            put("category", r.category)
        }
        return .object(object)
    }

    static func validateText(_ text: String, field: String, range: ClosedRange<Int>, multiline: Bool = false)
        throws(ReminderCoreError)
    {
        // Printable ASCII (most titles) needs none of the Unicode checks below.
        let printableASCII = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if printableASCII, range.contains(text.utf8.count), text.utf8.contains(where: { $0 != 0x20 }) { return }
        let count = text.count
        if range.lowerBound > 0, text.allSatisfy(\.isWhitespace) {
            throw .invalidValue(field: field, reason: "must not be empty")
        }
        guard range.contains(count) else {
            throw .invalidValue(field: field, reason: "\(count) characters; at most \(range.upperBound) are allowed")
        }
        let forbidden = text.unicodeScalars.first { scalar in
            scalar.properties.generalCategory == .control && !(multiline && (scalar == "\n" || scalar == "\t"))
        }
        if let forbidden {
            throw .invalidValue(
                field: field,
                reason: "contains the control character U+\(String(forbidden.value, radix: 16, uppercase: true))")
        }
    }

    static func validateID(_ id: String, field: String) throws(ReminderCoreError) {
        guard (1...64).contains(id.count),
            id.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
            })
        else {
            throw .invalidValue(
                field: field, reason: "\(quoted(id)): an id is 1 to 64 lowercase letters, digits, '-', '_' or '.'")
        }
    }

    static func validateCurrency(_ code: String, field: String) throws(ReminderCoreError) {
        guard code.count == 3, code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw .invalidValue(field: field, reason: "\(quoted(code)) is not an ISO 4217 code like USD")
        }
    }

    /// A free-text field of at most 100 characters (card, code, category).
    static func shortText(_ fields: inout FieldReader, _ key: String) throws(ReminderCoreError) -> String? {
        guard let text = try fields.string(key) else { return nil }
        try validateText(text, field: fields.fieldPath(key), range: 1...100)
        return text
    }

    /// `repeatEvery` (`RepeatRule`: 1m to 24h, or `0m` for none) and `repeatTimes` (1 to 100).
    static func decodeRepeat(_ fields: inout FieldReader) throws(ReminderCoreError) -> (CalendarDuration?, Int?) {
        let every = try fields.parsed("repeatEvery") { CalendarDuration.parse($0, rules: .repeatEvery) }
        guard let times = try fields.integer("repeatTimes") else { return (every, nil) }
        try RepeatRule.validateTimes(times, field: fields.fieldPath("repeatTimes"))
        return (every, Int(times))
    }

    static func decodeLeads(_ fields: inout FieldReader) throws(ReminderCoreError) -> [CalendarDuration]? {
        guard let elements = try fields.array("lead") else { return nil }
        return try decodeDurations(elements, field: fields.fieldPath("lead"), rules: .lead)
    }
}

/// Parses an array of duration strings, naming the element that fails (`lead[1]`).
func decodeDurations(_ elements: [JSONValue], field: String, rules: CalendarDuration.Rules) throws(ReminderCoreError)
    -> [CalendarDuration]
{
    guard elements.count <= 20 else { throw .invalidValue(field: field, reason: "at most 20 entries") }
    var result: [CalendarDuration] = []
    for (index, element) in elements.enumerated() {
        let elementField = "\(field)[\(index)]"
        guard case .string(let text) = element else {
            throw .invalidValue(field: elementField, reason: "expected a string like \"7d\", found \(element.typeName)")
        }
        switch CalendarDuration.parse(text, rules: rules) {
        case .success(let duration): result.append(duration)
        case .failure(let error): throw .invalidValue(field: elementField, reason: "\(quoted(text)): \(error.reason)")
        }
    }
    return result
}
