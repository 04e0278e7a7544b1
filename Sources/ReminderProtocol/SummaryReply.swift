import ReminderCore
import ReminderJSON

/// `Summary`: the dashboard (CONTRACT §5 `summary`). Amounts are decimal text; the totals are in the
/// daemon's configured `currency`, with those of other currencies beside them.
public struct SummaryReply: ReminderReply, WireObject {
    /// An item in one of the lists: what is due within a week, renewing, or a coupon.
    public struct Entry: WireObject {
        public var item = "", title = "", kind = "", status = "", currency = ""
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
        public init(unread: Void) {}
        /// What an entry does not have is absent, not null.
        public static let wireFields: [WireField<Entry>] = [
            .required("item", \.item), .required("title", \.title), .required("kind", \.kind),
            .required("status", \.status), .required("currency", \.currency), .optional("due", \.due),
            .optional("daysLeft", \.daysLeft), .optional("card", \.card), .optional("value", \.value),
        ]
    }

    /// A Done lately.
    public struct Use: WireObject {
        public var item = "", title = "", at = "", reason = ""

        public init(item: String, title: String, at: String, reason: String) {
            (self.item, self.title, self.at, self.reason) = (item, title, at, reason)
        }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Use>] = [
            .required("item", \.item), .required("title", \.title), .required("at", \.at),
            .required("reason", \.reason),
        ]
    }

    /// A card's fee return: what it gave back this card year against its annual fee.
    public struct FeeReturn: WireObject {
        public var card = "", redeemed = "", currency = "", feeDue = ""
        public var daysUntilFee: Int64 = 0
        /// Nil when the fee item has no amount.
        public var fee, net: String?

        public init(
            card: String, redeemed: String, currency: String, feeDue: String, daysUntilFee: Int64, fee: String?,
            net: String?
        ) {
            (self.card, self.redeemed, self.currency, self.feeDue) = (card, redeemed, currency, feeDue)
            (self.daysUntilFee, self.fee, self.net) = (daysUntilFee, fee, net)
        }
        public init(unread: Void) {}
        public static let wireFields: [WireField<FeeReturn>] = [
            .required("card", \.card), .required("redeemed", \.redeemed), .required("currency", \.currency),
            .required("feeDue", \.feeDue), .required("daysUntilFee", \.daysUntilFee), .optional("fee", \.fee),
            .optional("net", \.net),
        ]
    }

    public var currency = ""
    /// Benefit value left this period: in `currency`, in others, and on how many cards.
    public var benefitsAvailable = ""
    public var benefitsAvailableOther: [String: String] = [:]
    public var benefitCards: Int64 = 0
    public var expiring: [Entry] = []
    public var usedRecently: [Use] = []
    public var monthlyTotal = ""
    public var monthlyOther: [String: String] = [:]
    public var renewingThisWeek: [Entry] = []
    public var couponsToday: [Entry] = []
    public var couponsThisWeek: [Entry] = []
    public var cards: [FeeReturn] = []

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
    public init(unread: Void) {}

    /// The object `summary`, its benefits, subscriptions and coupons each in an object of their own.
    public static let wireFields: [WireField<SummaryReply>] = [
        .required("currency", \.currency),
        .group(
            "benefits",
            [
                .required("available", \.benefitsAvailable), .required("availableOther", \.benefitsAvailableOther),
                .required("cards", \.benefitCards),
            ]),
        .objects("expiring", \.expiring),
        .objects("usedRecently", \.usedRecently),
        .group(
            "subscriptions",
            [
                .required("monthlyTotal", \.monthlyTotal), .required("monthlyOther", \.monthlyOther),
                .objects("renewingThisWeek", \.renewingThisWeek),
            ]),
        .group("coupons", [.objects("today", \.couponsToday), .objects("thisWeek", \.couponsThisWeek)]),
        .objects("cards", \.cards),
    ]

    public var parameters: [String: JSONValue] { ["summary": json] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        try self.init(wire: parameters["summary"], path: "summary")
    }
}
