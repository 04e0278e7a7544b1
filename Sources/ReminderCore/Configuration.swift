import CivilTime
import ReminderJSON

/// The user's settings (CONTRACT §3), with the defaults that `config.example.json` spells out.
public struct Configuration: Hashable, Sendable {
    /// IANA zone name; `nil` means the system zone.
    public var timeZone: String?
    /// When day leads fire, on the wall clock.
    public var reminderTime: LocalTime
    public var leadTimes: [CalendarDuration]
    public var quietHours: QuietHours?
    public var snoozeOptions: [CalendarDuration]
    /// ISO 4217 code for items that name none.
    public var currency: String
    /// Where the daemon listens; `nil` means `$XDG_RUNTIME_DIR/reminderd.sock`.
    public var socketPath: String?
    /// History entries older than this many days are pruned.
    public var historyDays: Int
    /// The CalDAV account (`reminderctl sync setup` writes it); `nil` when syncing is not set up.
    /// Read and validated here so that every program refuses the same mistakes; the daemon itself
    /// has no network and ignores it.
    public var sync: SyncSettings?
    /// Whether reminderd shows a panel indicator (a StatusNotifierItem) when the desktop hosts one.
    public var indicator: Bool
    /// Repeat until acknowledged for items that set none (`RepeatRule`); nil, the default: off.
    public var repeatEvery: CalendarDuration?
    /// How many repeats at most, for items that set none.
    public var repeatTimes: Int
    /// How pop-ups and the indicator write money; not a key of the file: the daemon sets it from
    /// the locale it writes in (`DaemonLocale`), nil (today's text) for C/POSIX.
    public var moneyLocale: MoneyLocale?
    /// Working days and holidays; `nil` (the default) means every day is one (CONTRACT §3).
    public var workdays: Workdays?
    /// The locale the daemon's pop-ups and menu speak (`ko_KR.UTF-8`); `nil` means the daemon's
    /// environment, which the systemd user manager gives it (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    public var language: String?

    public init(
        timeZone: String? = nil, reminderTime: LocalTime = LocalTime(hour: 9, minute: 0),
        leadTimes: [CalendarDuration] = [
            CalendarDuration(7, .days), CalendarDuration(1, .days), CalendarDuration(0, .days),
        ],
        quietHours: QuietHours? = QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0)),
        snoozeOptions: [CalendarDuration] = [
            CalendarDuration(1, .hours), CalendarDuration(1, .days), CalendarDuration(1, .weeks),
        ],
        currency: String = "USD", socketPath: String? = nil, historyDays: Int = 365, sync: SyncSettings? = nil,
        indicator: Bool = true, repeatEvery: CalendarDuration? = nil, repeatTimes: Int = RepeatRule.defaultTimes,
        workdays: Workdays? = nil, language: String? = nil
    ) {
        self.timeZone = timeZone
        self.reminderTime = reminderTime
        self.leadTimes = leadTimes
        self.quietHours = quietHours
        self.snoozeOptions = snoozeOptions
        self.currency = currency
        self.socketPath = socketPath
        self.historyDays = historyDays
        self.sync = sync
        self.indicator = indicator
        self.repeatEvery = repeatEvery
        self.repeatTimes = repeatTimes
        self.workdays = workdays
        self.language = language
    }

    public static let defaults = Configuration()

    /// Reads a config document; every key is optional, an unknown key or a bad value is refused
    /// with its key path.
    public init(json: JSONValue) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: "")
        var config = Configuration.defaults
        config.timeZone = try fields.string("timeZone")
        if let zone = config.timeZone, zone.isEmpty || zone.hasPrefix("/") || zone.contains("..") {
            throw .invalidValue(
                field: "timeZone", reason: "\(quoted(zone)) is not an IANA zone name like Europe/Berlin")
        }
        if let time = try fields.parsed("reminderTime", LocalTime.parse) { config.reminderTime = time }
        if let leads = try fields.array("leadTimes") {
            config.leadTimes = try decodeDurations(leads, field: "leadTimes", rules: .lead)
        }
        // Absent keeps the default window; null, {} or equal ends mean no quiet hours.
        if json.hasKey("quietHours") {
            config.quietHours = nil
            if let quiet = fields.value("quietHours") {
                var window = try FieldReader(quiet, path: "quietHours")
                let start = try window.parsed("start", LocalTime.parse)
                let end = try window.parsed("end", LocalTime.parse)
                try window.rejectUnknown()
                switch (start, end) {
                case (nil, nil): break
                case (let start?, let end?): config.quietHours = start == end ? nil : QuietHours(start: start, end: end)
                case (nil, _): throw .missingField(field: "quietHours.start", reason: "give both start and end, HH:MM")
                case (_, nil): throw .missingField(field: "quietHours.end", reason: "give both start and end, HH:MM")
                }
            }
        }
        if let snoozes = try fields.array("snoozeOptions") {
            config.snoozeOptions = try decodeDurations(snoozes, field: "snoozeOptions", rules: .snooze)
        }
        if let currency = try fields.string("currency") {
            try Item.validateCurrency(currency, field: "currency")
            config.currency = currency
        }
        config.socketPath = try fields.string("socketPath")
        if let path = config.socketPath, path.isEmpty || path.utf8.count > 107 {
            throw .invalidValue(field: "socketPath", reason: "must be a path of 1 to 107 bytes (the Unix socket limit)")
        }
        if let days = try fields.integer("historyDays") {
            guard (1...3650).contains(days) else {
                throw .invalidValue(field: "historyDays", reason: "\(days) is not between 1 and 3650")
            }
            config.historyDays = Int(days)
        }
        if let sync = fields.value("sync") { config.sync = try SyncSettings(sync) }
        if let indicator = try fields.boolean("indicator") { config.indicator = indicator }
        config.repeatEvery = try fields.parsed("repeatEvery") { CalendarDuration.parse($0, rules: .repeatEvery) }
        if let times = try fields.integer("repeatTimes") {
            try RepeatRule.validateTimes(times, field: "repeatTimes")
            config.repeatTimes = Int(times)
        }
        if let workdays = fields.value("workdays"), workdays != .null { config.workdays = try Workdays(json: workdays) }
        config.language = try fields.string("language")
        if let language = config.language, language.isEmpty || language.contains("/") {
            throw .invalidValue(field: "language", reason: "\(quoted(language)) is not a locale name like de_DE.UTF-8")
        }
        try fields.rejectUnknown()
        self = config
    }
}

/// A nightly window without pop-ups, `[start, end)` on the wall clock; wraps midnight when
/// `start > end`.
public struct QuietHours: Hashable, Sendable {
    public let start: LocalTime
    public let end: LocalTime

    public init(start: LocalTime, end: LocalTime) {
        self.start = start
        self.end = end
    }

    public var wrapsMidnight: Bool { start > end }
}

extension JSONValue {
    func hasKey(_ key: String) -> Bool {
        if case .object(let fields) = self { return fields[key] != nil }
        return false
    }
}
