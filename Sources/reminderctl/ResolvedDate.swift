import CivilTime
import ReminderCore
import ReminderJSON
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Today in the system's zone (`TZ`, else /etc/localtime): for what is asked without a daemon —
/// the catalog's age, and `setup` before reminderd first runs. Everything else asks the daemon
/// (`DaemonClient.today`), whose zone may be another.
enum SystemClock {
    static func today() -> LocalDate {
        ((try? ZoneDatabase.shared.systemZone()) ?? .utc).localDateTime(at: TestClock.process.now()).date
    }
}

/// A date option resolved: its field, what was typed, and the date it means.
struct ResolvedDate {
    let option: String
    let typed: String
    let date: LocalDate
    /// Today's year, which a sentence's date may leave out (`DateText.sentence`).
    let thisYear: Int

    /// "--expires fri: Fri 2026-11-27", so the user sees which day a natural form meant.
    var echo: String { "\(option) \(typed): \(ResolvedDate.full(date, thisYear: thisYear))" }

    /// "Fri 2026-11-27" in English, the language's own order and names in another.
    static func full(_ date: LocalDate, thisYear: Int) -> String { DateText.sentence(date, thisYear: thisYear) }

    /// `typed` for `option` resolved as a natural date (`fri`, `+2w`); nil when it is a
    /// YYYY-MM-DD… form already, which goes on as typed.
    static func resolve(_ typed: String, option: String, today: LocalDate) throws -> ResolvedDate? {
        switch NaturalDate.resolve(typed, today: today) {
        case .success(let date?): return ResolvedDate(option: option, typed: typed, date: date, thisYear: today.year)
        case .success(nil): return nil
        case .failure(let error): throw Refusal.usage("\(option) \(error.reason)")
        }
    }
}

extension ItemOptions {
    /// The fields with their natural dates (`fri`, `+2w`) replaced by YYYY-MM-DD, and what each
    /// one resolved to.
    func resolvedFields(today: LocalDate) throws -> (fields: [String: JSONValue], dates: [ResolvedDate]) {
        var fields = self.fields
        var dates: [ResolvedDate] = []
        for (key, option) in [
            ("next", "--next"), ("expires", "--expires"), ("due", "--due"), ("lastPurchased", "--last-purchased"),
            ("periodStart", "--period-start"), ("trialEnds", "--trial-ends"),
        ] {
            guard case .string(let typed)? = fields[key],
                let resolved = try ResolvedDate.resolve(typed, option: option, today: today)
            else { continue }
            fields[key] = .string(resolved.date.description)
            dates.append(resolved)
        }
        if let months = try amountsByMonth() { fields["amountIn"] = months }
        return (fields, dates)
    }

    /// Refuses a coupon whose expiry is before today — it would be added expired — unless
    /// `force`.
    static func refusePastExpiry(_ fields: [String: JSONValue], today: LocalDate, force: Bool) throws {
        guard !force, case .string(let expires)? = fields["expires"],
            case .success(let date) = LocalDate.parse(String(expires.prefix(10))), date < today
        else { return }
        throw Refusal(
            message: _t(
                "--expires %1$s is in the past (today is %2$s): the coupon would be added expired. Check the date, or add --force to add it anyway"
            ).filled(expires, today.description))
    }
}
