import ArgumentParser
import Glibc
import ReminderCore
import ReminderPlatform

/// The locale this run writes money in, from reminderctl's own environment (`LC_ALL`, then
/// `LC_MONETARY`, then `LANG`), never from `setlocale`: nil — today's text — for C/POSIX, an
/// unset environment, or a locale not installed.
enum TerminalLocale {
    static let money = MoneyLocale(named: LocaleName.fromEnvironment(for: "LC_MONETARY") { getenv($0).map { String(cString: $0) } })

    /// An amount option as typed (`--amount 12,50` in de_DE) as the decimal the daemon reads;
    /// an ambiguous one (`1.234` there) is refused before anything is sent.
    static func amount(_ text: String) throws -> String {
        switch Money.canonicalInput(text, in: money) {
        case .success(let canonical): return canonical
        case .failure(let error): throw ValidationError(error.reason)
        }
    }

    /// The part of a benefit used (`done --amount`) as the typed amount the call carries; the
    /// daemon refuses one that is not positive, as it refuses it from any client.
    static func usedAmount(_ text: String) throws -> Money {
        guard case .success(let used) = Money.parse(try amount(text)) else {
            throw ValidationError(_t("\"%1$s\" is not a positive decimal amount").filled(text))
        }
        return used
    }
}
