import CivilTime
import ReminderCore
import ReminderJSON

/// `Report`: the value report (CONTRACT §5 `report`), `ValueReport` on the wire, written and read
/// by the field tables below. Amounts are decimal text (`net` signed, `"-311"`), months `YYYY-MM`,
/// times RFC 3339 with the daemon's offset.
public struct ReportReply: ReminderReply, WireObject {
    public var report: ValueReport

    public init(report: ValueReport) { self.report = report }
    public init(unread: Void) { report = ValueReport(unread: ()) }
    public static let wireFields: [WireField<ReportReply>] = [.object("report", \.report)]
}

extension WireField {
    /// A total as a report carries it: a sum of amounts, signed (`Money.parseTotal`).
    static func total(_ key: String, _ property: WritableKeyPath<Owner, Money> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = .string(owner[keyPath: property].description)
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard case .string(let text)? = json, case .success(let total) = Money.parseTotal(text) else {
                throw wrong(place, "a decimal amount")
            }
            owner[keyPath: property] = total
        }
    }

    /// A total left out when nil.
    static func optionalTotal(_ key: String, _ property: WritableKeyPath<Owner, Money?> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            if let total = owner[keyPath: property] { object[key] = .string(total.description) }
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json else { return owner[keyPath: property] = nil }
            guard case .string(let text) = json, case .success(let total) = Money.parseTotal(text) else {
                throw wrong(place, "a decimal amount")
            }
            owner[keyPath: property] = total
        }
    }
}

extension ValueReport: WireObject {
    public init(unread: Void) {
        self.init(
            currency: "", cardFilter: nil, months: [], cards: [], subscriptions: [], subscriptionsMonthly: .zero, lost: [])
    }

    /// `cardFilter` is null when the report is of every card.
    public static let wireFields: [WireField<ValueReport>] = [
        .required("currency", \.currency), .nullable("cardFilter", \.cardFilter), .objects("months", \.months),
        .objects("cards", \.cards),
        .group("subscriptions", [.total("monthlyTotal", \.subscriptionsMonthly), .objects("items", \.subscriptions)]),
        .objects("lost", \.lost),
    ]
}

extension ValueReport.Month: WireObject {
    public init(unread: Void) {
        self.init(
            month: LocalDate(uncheckedYear: 1970, month: 1, day: 1), redeemed: .zero, lost: .zero, subscriptions: .zero,
            cards: [])
    }

    public static let wireFields: [WireField<ValueReport.Month>] = [
        // The month as `YYYY-MM`, its first day in the report.
        WireField(key: "month") { month, object in
            object["month"] = .string(String(month.month.description.prefix(7)))
        } read: { month, json, place throws(ReminderProtocolError) in
            guard case .string(let text)? = json, case .success(let first) = LocalDate.parse(text + "-01") else {
                throw .malformedMessage(reason: "\(place): expected YYYY-MM")
            }
            month.month = first
        },
        .total("redeemed", \.redeemed), .total("lost", \.lost), .total("subscriptions", \.subscriptions),
        .objects("cards", \.cards),
    ]
}

extension ValueReport.CardAmount: WireObject {
    public init(unread: Void) { self.init(card: "", currency: "", amount: .zero) }
    public static let wireFields: [WireField<ValueReport.CardAmount>] = [
        .required("card", \.card), .required("currency", \.currency), .total("redeemed", \.amount),
    ]
}

extension ValueReport.Card: WireObject {
    public init(unread: Void) {
        self.init(card: "", currency: "", redeemed: .zero, lost: .zero, fee: nil, feeDue: nil, yearRedeemed: nil)
    }

    /// `net` (the year's redeemed less the fee) is written for other clients and not read back:
    /// it follows from `fee` and `yearRedeemed`.
    public static let wireFields: [WireField<ValueReport.Card>] = [
        .required("card", \.card), .required("currency", \.currency), .total("redeemed", \.redeemed),
        .total("lost", \.lost), .optionalTotal("fee", \.fee), .optional("feeDue", \.feeDue),
        .optionalTotal("yearRedeemed", \.yearRedeemed),
        WireField(key: "net") { card, object in
            if let net = card.net { object["net"] = .string(net.description) }
        } read: { _, _, _ in },
    ]
}

extension ValueReport.Subscription: WireObject {
    public init(unread: Void) {
        self.init(item: "", title: "", currency: "", every: "", card: nil, amount: .zero, monthly: .zero)
    }
    public static let wireFields: [WireField<ValueReport.Subscription>] = [
        .required("item", \.item), .required("title", \.title), .required("currency", \.currency),
        .required("every", \.every), .optional("card", \.card), .total("amount", \.amount),
        .total("monthly", \.monthly),
    ]
}

extension ValueReport.Loss: WireObject {
    public init(unread: Void) {
        self.init(item: "", title: "", kind: "", currency: "", card: nil, due: "", amount: .zero, lost: .zero)
    }
    public static let wireFields: [WireField<ValueReport.Loss>] = [
        .required("item", \.item), .required("title", \.title), .required("kind", \.kind),
        .required("currency", \.currency), .optional("card", \.card), .required("due", \.due),
        .total("amount", \.amount), .total("lost", \.lost),
    ]
}
