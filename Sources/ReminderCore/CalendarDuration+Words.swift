/// A snooze's length as a button shows it ("Snooze 1h"): in English as the config spells it, so
/// the C locale's buttons stay as they always read; a catalog gives the language's own words
/// ("1시간 후 다시 알림", "In 2 Tagen erneut erinnern"). German needs a plural for the calendar units.
extension CalendarDuration {
    public var inWords: String {
        let n = String(count)
        switch unit {
        case .minutes: return _n("%1$dm", "%1$dm", count).filled(n)
        case .hours: return _n("%1$dh", "%1$dh", count).filled(n)
        case .days: return _n("%1$dd", "%1$dd", count).filled(n)
        case .weeks: return _n("%1$dw", "%1$dw", count).filled(n)
        case .months: return _n("%1$dmo", "%1$dmo", count).filled(n)
        case .years: return _n("%1$dy", "%1$dy", count).filled(n)
        }
    }
}
