import ReminderCore
import ReminderJSON

/// `Summary`: the dashboard (CONTRACT §5 `summary`). Amounts are decimal text; the totals are in the
/// daemon's configured `currency`, with those of other currencies beside them.
public struct SummaryReply: ReminderReply {
    /// An item in one of the lists: what is due within a week, renewing, or a coupon.
    public struct Entry: Sendable, Equatable {
        public var item, title, kind, status, currency: String
        /// The current occurrence's due time and whole days left; nil when nothing is due.
        public var due: String?
        public var daysLeft: Int64?
        public var card: String?
        /// What is left of a benefit, a subscription's price, a coupon's value.
        public var value: String?

        public init(
            item: String, title: String, kind: String, status: String, currency: String, due: String? = nil,
            daysLeft: Int64? = nil, card: String? = nil, value: String? = nil
        ) {
            (self.item, self.title, self.kind, self.status, self.currency) = (item, title, kind, status, currency)
            (self.due, self.daysLeft, self.card, self.value) = (due, daysLeft, card, value)
        }

        var json: JSONValue {
            var fields: [String: JSONValue] = [
                "item": .string(item), "title": .string(title), "kind": .string(kind), "status": .string(status),
                "currency": .string(currency),
            ]
            fields.put("due", due)
            if let daysLeft { fields["daysLeft"] = .integer(daysLeft) }
            fields.put("card", card)
            fields.put("value", value)
            return .object(fields)
        }

        init(_ entry: ReplyFields) throws(ReminderProtocolError) {
            self.init(
                item: try entry.string("item"), title: try entry.string("title"), kind: try entry.string("kind"),
                status: try entry.string("status"), currency: try entry.string("currency"),
                due: try entry.optionalString("due"), daysLeft: try entry.optionalInteger("daysLeft"),
                card: try entry.optionalString("card"), value: try entry.optionalString("value"))
        }

        static func list(_ reader: ReplyFields, _ key: String) throws(ReminderProtocolError) -> [Entry] {
            var entries: [Entry] = []
            for entry in try reader.objects(key) { entries.append(try Entry(entry)) }
            return entries
        }
    }

    /// A Done lately.
    public struct Use: Sendable, Equatable {
        public var item, title, at, reason: String

        public init(item: String, title: String, at: String, reason: String) {
            (self.item, self.title, self.at, self.reason) = (item, title, at, reason)
        }
    }

    /// A card's fee return: what it gave back this card year against its annual fee.
    public struct FeeReturn: Sendable, Equatable {
        public var card, redeemed, currency, feeDue: String
        public var daysUntilFee: Int64
        /// Nil when the fee item has no amount.
        public var fee, net: String?

        public init(
            card: String, redeemed: String, currency: String, feeDue: String, daysUntilFee: Int64, fee: String?,
            net: String?
        ) {
            (self.card, self.redeemed, self.currency, self.feeDue) = (card, redeemed, currency, feeDue)
            (self.daysUntilFee, self.fee, self.net) = (daysUntilFee, fee, net)
        }
    }

    public var currency: String
    /// Benefit value left this period: in `currency`, in others, and on how many cards.
    public var benefitsAvailable: String
    public var benefitsAvailableOther: [String: String]
    public var benefitCards: Int64
    public var expiring: [Entry]
    public var usedRecently: [Use]
    public var monthlyTotal: String
    public var monthlyOther: [String: String]
    public var renewingThisWeek: [Entry]
    public var couponsToday: [Entry]
    public var couponsThisWeek: [Entry]
    public var cards: [FeeReturn]

    public init(
        currency: String, benefitsAvailable: String, benefitsAvailableOther: [String: String], benefitCards: Int64,
        expiring: [Entry], usedRecently: [Use], monthlyTotal: String, monthlyOther: [String: String],
        renewingThisWeek: [Entry], couponsToday: [Entry], couponsThisWeek: [Entry], cards: [FeeReturn]
    ) {
        self.currency = currency
        (self.benefitsAvailable, self.benefitsAvailableOther, self.benefitCards) = (
            benefitsAvailable, benefitsAvailableOther, benefitCards
        )
        (self.expiring, self.usedRecently) = (expiring, usedRecently)
        (self.monthlyTotal, self.monthlyOther, self.renewingThisWeek) = (monthlyTotal, monthlyOther, renewingThisWeek)
        (self.couponsToday, self.couponsThisWeek, self.cards) = (couponsToday, couponsThisWeek, cards)
    }

    public var parameters: [String: JSONValue] {
        func totals(_ map: [String: String]) -> JSONValue { .object(map.mapValues { .string($0) }) }
        return [
            "summary": .object([
                "currency": .string(currency),
                "benefits": .object([
                    "available": .string(benefitsAvailable), "availableOther": totals(benefitsAvailableOther),
                    "cards": .integer(benefitCards),
                ]),
                "expiring": .array(expiring.map(\.json)),
                "usedRecently": .array(
                    usedRecently.map {
                        .object([
                            "item": .string($0.item), "title": .string($0.title), "at": .string($0.at),
                            "reason": .string($0.reason),
                        ])
                    }),
                "subscriptions": .object([
                    "monthlyTotal": .string(monthlyTotal), "monthlyOther": totals(monthlyOther),
                    "renewingThisWeek": .array(renewingThisWeek.map(\.json)),
                ]),
                "coupons": .object([
                    "today": .array(couponsToday.map(\.json)), "thisWeek": .array(couponsThisWeek.map(\.json)),
                ]),
                "cards": .array(
                    cards.map {
                        var fields: [String: JSONValue] = [
                            "card": .string($0.card), "redeemed": .string($0.redeemed),
                            "currency": .string($0.currency), "feeDue": .string($0.feeDue),
                            "daysUntilFee": .integer($0.daysUntilFee),
                        ]
                        fields.put("fee", $0.fee)
                        fields.put("net", $0.net)
                        return .object(fields)
                    }),
            ])
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let summary = try ReplyFields(parameters["summary"], "summary")
        let benefits = try summary.object("benefits")
        let subscriptions = try summary.object("subscriptions")
        let coupons = try summary.object("coupons")
        var used: [Use] = []
        for use in try summary.objects("usedRecently") {
            used.append(
                Use(
                    item: try use.string("item"), title: try use.string("title"), at: try use.string("at"),
                    reason: try use.string("reason")))
        }
        var cards: [FeeReturn] = []
        for card in try summary.objects("cards") {
            cards.append(
                FeeReturn(
                    card: try card.string("card"), redeemed: try card.string("redeemed"),
                    currency: try card.string("currency"), feeDue: try card.string("feeDue"),
                    daysUntilFee: try card.integer("daysUntilFee"), fee: try card.optionalString("fee"),
                    net: try card.optionalString("net")))
        }
        self.init(
            currency: try summary.string("currency"), benefitsAvailable: try benefits.string("available"),
            benefitsAvailableOther: try benefits.stringMap("availableOther"),
            benefitCards: try benefits.integer("cards"), expiring: try Entry.list(summary, "expiring"),
            usedRecently: used, monthlyTotal: try subscriptions.string("monthlyTotal"),
            monthlyOther: try subscriptions.stringMap("monthlyOther"),
            renewingThisWeek: try Entry.list(subscriptions, "renewingThisWeek"),
            couponsToday: try Entry.list(coupons, "today"), couponsThisWeek: try Entry.list(coupons, "thisWeek"),
            cards: cards)
    }
}
