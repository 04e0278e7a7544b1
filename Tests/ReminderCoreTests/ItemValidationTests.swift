import ReminderCore
import ReminderTestSupport
import Testing

@Suite struct ItemValidationTests {
    func refusal(_ json: String, createdAt: Int64? = nil) -> String? {
        do {
            _ = try Fixture.item(json, createdAt: createdAt)
            return nil
        } catch let error as ReminderCoreError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func everyKindDecodesAndEncodesBackTheSame() throws {
        let documents = [
            #"{"kind":"benefit","title":"Uber Cash","card":"Amex Platinum","amount":"15","period":"monthly","amountUsed":"7.50"}"#,
            #"{"kind":"subscription","title":"Netflix","amount":"15.99","every":"1mo","next":"2026-01-31","card":"Sapphire"}"#,
            #"{"kind":"coupon","title":"BOGO","expires":"2026-12-01T14:30","code":"BOGO2026","value":"5","category":"Food"}"#,
            #"{"kind":"fee","title":"Platinum fee","card":"Amex Platinum","amount":"695","due":"2028-02-29","id":"fee-1"}"#,
            #"{"kind":"rebuy","title":"Coffee","everyDays":30,"lastPurchased":"2026-11-01","category":"Pantry","lead":["2d","1h"]}"#,
        ]
        for document in documents {
            let item = try Fixture.item(document)
            let again = try Item(json: item.json, context: .init(zone: .utc))
            #expect(again == item)
        }
    }

    @Test func anUnknownKindOrFieldIsNamed() {
        #expect(
            refusal(#"{"kind":"loan","title":"x"}"#)
                == #"kind: "loan" is not a kind; use benefit, subscription, coupon, fee, rebuy"#)
        #expect(refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","colour":"red"}"#) == "colour: unknown field")
        #expect(refusal(#"{"title":"x"}"#) == "kind: missing (one of benefit, subscription, coupon, fee, rebuy)")
        #expect(refusal(#"[1]"#) == "(top level): expected an object, found an array")
    }

    @Test func titlesAndNotesHaveLimits() {
        #expect(refusal(#"{"kind":"fee","due":"2026-01-01"}"#) == "title: missing (1 to 100 characters)")
        #expect(refusal(#"{"kind":"fee","title":"  ","due":"2026-01-01"}"#) == "title: must not be empty")
        let long = String(repeating: "é", count: 101)
        #expect(
            refusal(#"{"kind":"fee","title":"\#(long)","due":"2026-01-01"}"#)
                == "title: 101 characters; at most 100 are allowed")
        #expect(refusal(#"{"kind":"fee","title":"\#(String(repeating: "a", count: 100))","due":"2026-01-01"}"#) == nil)
        let notes = String(repeating: "n", count: 501)
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","notes":"\#(notes)"}"#)
                == "notes: 501 characters; at most 500 are allowed")
        #expect(
            refusal(#"{"kind":"fee","title":"a\u0007b","due":"2026-01-01"}"#)
                == "title: contains the control character U+7")
    }

    @Test func eachKindNeedsItsScheduleField() {
        #expect(
            refusal(#"{"kind":"benefit","title":"x"}"#) == "period: missing (monthly, quarterly, semiannual or annual)")
        #expect(
            refusal(#"{"kind":"subscription","title":"x","next":"2026-01-01"}"#)
                == "every: missing (how often it renews, like 1mo)")
        #expect(
            refusal(#"{"kind":"subscription","title":"x","every":"1mo"}"#)
                == "next: missing (the next renewal date, YYYY-MM-DD)")
        #expect(refusal(#"{"kind":"coupon","title":"x"}"#) == "expires: missing (a date or local date-time)")
        #expect(refusal(#"{"kind":"fee","title":"x"}"#) == "due: missing (the fee's due date, YYYY-MM-DD)")
        #expect(
            refusal(#"{"kind":"rebuy","title":"x","lastPurchased":"2026-01-01"}"#)
                == "everyDays: missing (a whole number of days, 1 to 365)")
    }

    @Test func badValuesAreRefusedWithTheReason() {
        #expect(
            refusal(#"{"kind":"rebuy","title":"x","everyDays":0,"lastPurchased":"2026-01-01"}"#)
                == "everyDays: 0 is not between 1 and 365")
        #expect(
            refusal(#"{"kind":"rebuy","title":"x","everyDays":366,"lastPurchased":"2026-01-01"}"#)
                == "everyDays: 366 is not between 1 and 365")
        #expect(
            refusal(#"{"kind":"rebuy","title":"x","everyDays":1.5,"lastPurchased":"2026-01-01"}"#)
                == "everyDays: expected a whole number, found a number")
        let coupon = #"{"kind":"coupon","title":"x","expires":"2026-12-01""#
        #expect(refusal(coupon + #","repeatEvery":"1m","repeatTimes":100}"#) == nil)
        #expect(refusal(coupon + #","repeatEvery":"0m"}"#) == nil)
        #expect(
            refusal(coupon + #","repeatEvery":"30s"}"#)
                == #"repeatEvery: "30s": expected a number and a unit (m, h), like 15m or 2h"#)
        #expect(refusal(coupon + #","repeatEvery":"1d"}"#) == #"repeatEvery: "1d": unit d is not allowed here; use m, h"#)
        #expect(refusal(coupon + #","repeatEvery":"25h"}"#) == #"repeatEvery: "25h": must be at most 24 hours"#)
        #expect(refusal(coupon + #","repeatTimes":0}"#) == "repeatTimes: 0 is not between 1 and 100")
        #expect(refusal(coupon + #","repeatTimes":101}"#) == "repeatTimes: 101 is not between 1 and 100")
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-02-30"}"#)
                == #"due: "2026-02-30": February 2026 has 28 days"#)
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","amount":15.99}"#)
                == "amount: expected a string, found a number")
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","amount":"-5"}"#)
                == #"amount: "-5": an amount cannot be negative"#)
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","amount":"1.23456"}"#)
                == #"amount: "1.23456": expected a decimal amount like "15.99" (at most 4 decimals)"#)
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","currency":"usd"}"#)
                == #"currency: "usd" is not an ISO 4217 code like USD"#)
        #expect(
            refusal(#"{"kind":"subscription","title":"x","every":"2h","next":"2026-01-01"}"#)
                == #"every: "2h": unit h is not allowed here; use d, w, mo, y"#)
        #expect(
            refusal(#"{"kind":"coupon","title":"x","expires":"2026-01-01","lead":["-1d"]}"#)
                == #"lead[0]: "-1d": a duration cannot be negative"#)
        #expect(
            refusal(#"{"kind":"coupon","title":"x","expires":"2026-01-01","lead":["7d","2mo"]}"#)
                == #"lead[1]: "2mo": unit mo is not allowed here; use m, h, d, w"#)
        #expect(
            refusal(#"{"kind":"coupon","title":"x","expires":"2026-01-01T25:00"}"#)
                == #"expires: "2026-01-01T25:00": 25:00 is not a time of day (00:00 to 23:59)"#)
        #expect(
            refusal(#"{"kind":"benefit","title":"x","period":"weekly"}"#)
                == #"period: "weekly": use monthly, quarterly, semiannual or annual"#)
        #expect(
            refusal(#"{"kind":"benefit","title":"x","period":"monthly","amount":"15","amountUsed":"20"}"#)
                == "amountUsed: 20 is more than the amount 15")
        #expect(
            refusal(#"{"kind":"fee","title":"x","due":"2026-01-01","id":"Not OK"}"#)
                == #"id: "Not OK": an id is 1 to 64 lowercase letters, digits, '-', '_' or '.'"#)
    }

    @Test func lastPurchasedMayNotBeAfterCreation() {
        let created = Fixture.instant("2026-11-21T10:00:00Z")
        let json = #"{"kind":"rebuy","title":"Coffee","everyDays":30,"lastPurchased":"2026-11-22"}"#
        #expect(refusal(json, createdAt: created) == "lastPurchased: 2026-11-22 is in the future (today is 2026-11-21)")
        #expect(refusal(json.replacingOccurrences("2026-11-22", "2026-11-21"), createdAt: created) == nil)
        let own =
            #"{"kind":"rebuy","title":"Coffee","everyDays":30,"lastPurchased":"2026-11-22","createdAt":"2026-11-23T00:00:00Z"}"#
        #expect(refusal(own, createdAt: created) == nil)
    }

    @Test func moneyIsExactDecimal() throws {
        #expect(try Money.parse("15.99").get().description == "15.99")
        #expect(try Money.parse("7.5").get().description == "7.50")
        #expect(try Money.parse("695").get().description == "695")
        #expect(try Money.parse("0.125").get().description == "0.125")
        #expect(try (Money.parse("0.1").get() + Money.parse("0.2").get()) == Money.parse("0.3").get())
        #expect(try Money.parse("1234.5").get().formatted(currency: "USD") == "$1,234.50")
        #expect(try Money.parse("15").get().formatted(currency: "EUR") == "€15")
        #expect(try Money.parse("15").get().formatted(currency: "CHF") == "15 CHF")
        #expect(try Money.parse("0.999").get().formatted(currency: "USD") == "$1")
    }

    @Test func durationsParseWithTheirRules() {
        #expect(CalendarDuration.parse("7d", rules: .lead) == .success(CalendarDuration(7, .days)))
        #expect(CalendarDuration.parse("0d", rules: .lead) == .success(CalendarDuration(0, .days)))
        #expect(CalendarDuration.parse("0h", rules: .snooze) == .failure(.malformed("must be longer than zero")))
        #expect(CalendarDuration.parse("3mo", rules: .renewal) == .success(CalendarDuration(3, .months)))
        #expect(CalendarDuration.parse("400d", rules: .lead) == .failure(.malformed("must be at most 366 days")))
        #expect((try? CalendarDuration.parse("d", rules: .lead).get()) == nil)
        #expect((try? CalendarDuration.parse("1.5d", rules: .lead).get()) == nil)
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
