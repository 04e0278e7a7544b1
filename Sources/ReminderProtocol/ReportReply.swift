import CivilTime
import ReminderCore
import ReminderJSON

/// `Report`: the value report (CONTRACT §5 `report`), `ValueReport` on the wire. Amounts are
/// decimal text (`net` signed, `"-311"`), months `YYYY-MM`, times RFC 3339 with the daemon's offset.
public struct ReportReply: ReminderReply {
    public var report: ValueReport

    public init(report: ValueReport) { self.report = report }

    public var parameters: [String: JSONValue] {
        func money(_ amount: Money) -> JSONValue { .string(amount.description) }
        let months: [JSONValue] = report.months.map { month in
            .object([
                "month": .string(String(month.month.description.prefix(7))), "redeemed": money(month.redeemed),
                "lost": money(month.lost), "subscriptions": money(month.subscriptions),
                "cards": .array(
                    month.cards.map {
                        .object([
                            "card": .string($0.card), "currency": .string($0.currency), "redeemed": money($0.amount),
                        ])
                    }),
            ])
        }
        let cards: [JSONValue] = report.cards.map { card in
            var fields: [String: JSONValue] = [
                "card": .string(card.card), "currency": .string(card.currency), "redeemed": money(card.redeemed),
                "lost": money(card.lost),
            ]
            fields.put("fee", card.fee?.description)
            fields.put("feeDue", card.feeDue)
            fields.put("yearRedeemed", card.yearRedeemed?.description)
            fields.put("net", card.net?.description)
            return .object(fields)
        }
        let subscriptions: [JSONValue] = report.subscriptions.map { subscription in
            var fields: [String: JSONValue] = [
                "item": .string(subscription.item), "title": .string(subscription.title),
                "currency": .string(subscription.currency), "every": .string(subscription.every),
                "amount": money(subscription.amount), "monthly": money(subscription.monthly),
            ]
            fields.put("card", subscription.card)
            return .object(fields)
        }
        let lost: [JSONValue] = report.lost.map { loss in
            var fields: [String: JSONValue] = [
                "item": .string(loss.item), "title": .string(loss.title), "kind": .string(loss.kind),
                "currency": .string(loss.currency), "due": .string(loss.due), "amount": money(loss.amount),
                "lost": money(loss.lost),
            ]
            fields.put("card", loss.card)
            return .object(fields)
        }
        return [
            "report": .object([
                "currency": .string(report.currency),
                "cardFilter": report.cardFilter.map { .array($0.map { .string($0) }) } ?? .null,
                "months": .array(months), "cards": .array(cards),
                "subscriptions": .object([
                    "monthlyTotal": money(report.subscriptionsMonthly), "items": .array(subscriptions),
                ]),
                "lost": .array(lost),
            ])
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let report = try ReplyFields(parameters["report"], "report")
        func money(_ fields: ReplyFields, _ key: String) throws(ReminderProtocolError) -> Money {
            guard case .success(let amount) = Money.parseTotal(try fields.string(key)) else {
                throw .malformedMessage(reason: "\(fields.path).\(key): expected a decimal amount")
            }
            return amount
        }
        func optionalMoney(_ fields: ReplyFields, _ key: String) throws(ReminderProtocolError) -> Money? {
            guard try fields.optionalString(key) != nil else { return nil }
            return try money(fields, key)
        }
        var months: [ValueReport.Month] = []
        for month in try report.objects("months") {
            let text = try month.string("month")
            guard case .success(let first) = LocalDate.parse(text + "-01") else {
                throw .malformedMessage(reason: "\(month.path).month: expected YYYY-MM")
            }
            var cards: [ValueReport.CardAmount] = []
            for card in try month.objects("cards") {
                cards.append(
                    ValueReport.CardAmount(
                        card: try card.string("card"), currency: try card.string("currency"),
                        amount: try money(card, "redeemed")))
            }
            months.append(
                ValueReport.Month(
                    month: first, redeemed: try money(month, "redeemed"), lost: try money(month, "lost"),
                    subscriptions: try money(month, "subscriptions"), cards: cards))
        }
        var cards: [ValueReport.Card] = []
        for card in try report.objects("cards") {
            cards.append(
                ValueReport.Card(
                    card: try card.string("card"), currency: try card.string("currency"),
                    redeemed: try money(card, "redeemed"), lost: try money(card, "lost"),
                    fee: try optionalMoney(card, "fee"), feeDue: try card.optionalString("feeDue"),
                    yearRedeemed: try optionalMoney(card, "yearRedeemed")))
        }
        let subscriptionsFields = try report.object("subscriptions")
        var subscriptions: [ValueReport.Subscription] = []
        for subscription in try subscriptionsFields.objects("items") {
            subscriptions.append(
                ValueReport.Subscription(
                    item: try subscription.string("item"), title: try subscription.string("title"),
                    currency: try subscription.string("currency"), every: try subscription.string("every"),
                    card: try subscription.optionalString("card"), amount: try money(subscription, "amount"),
                    monthly: try money(subscription, "monthly")))
        }
        var lost: [ValueReport.Loss] = []
        for loss in try report.objects("lost") {
            lost.append(
                ValueReport.Loss(
                    item: try loss.string("item"), title: try loss.string("title"), kind: try loss.string("kind"),
                    currency: try loss.string("currency"), card: try loss.optionalString("card"),
                    due: try loss.string("due"), amount: try money(loss, "amount"), lost: try money(loss, "lost")))
        }
        let filter = try report.optionalStrings("cardFilter")
        self.init(
            report: ValueReport(
                currency: try report.string("currency"), cardFilter: filter, months: months, cards: cards,
                subscriptions: subscriptions, subscriptionsMonthly: try money(subscriptionsFields, "monthlyTotal"),
                lost: lost))
    }
}
