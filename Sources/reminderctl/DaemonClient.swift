import CivilTime
import FoundationEssentials
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// Talks to the running daemon: one varlink call per command, with CONTRACT §5's exit codes.
enum DaemonClient {
    /// The socket: `$REMINDERD_SOCKET`, the config's `socketPath`, or the runtime directory's.
    static var socketPath: String {
        let configured = try? ConfigFile.load(explicitPath: nil).get().socketPath
        return SocketPath.resolve(configured: configured ?? nil)
    }

    /// Makes the call; a refusal exits 1 with the daemon's reason, an unreachable daemon exits
    /// 69 with the hint to start it.
    static func call(_ request: ReminderRequest, timeoutSeconds: Int = 30) throws -> [String: JSONValue] {
        switch try reply(request, timeoutSeconds: timeoutSeconds) {
        case .success(let parameters): return parameters
        case .failure(let error) where error.name == ReminderInterface.ErrorName.notDurable:
            throw Refusal(
                message:
                    "\(ErrorWording.message(error))\nhint: the change is applied; check it (reminderctl list) before repeating it"
            )
        case .failure(let error): throw Refusal(message: ErrorWording.message(error))
        case .streamed: preconditionFailure("a reply read from the socket is never a streamed one")
        }
    }

    /// Makes the call and reads its typed reply.
    static func call<Reply: ReminderReply>(_ request: ReminderRequest, as: Reply.Type) throws -> Reply {
        let reply = try call(request)
        return try Output.read { try Reply(parameters: reply) }
    }

    /// Today in the daemon's time zone — not the shell's `TZ` nor a config file the daemon may not
    /// be reading: natural dates (`tomorrow`) and "is this in the past" are answered in it.
    /// A daemon older than `today` (still running after an upgrade) is answered from its zone.
    static func today() throws -> LocalDate {
        let status = try call(.status, as: StatusReply.self)
        guard let text = status.today else {
            return zone(named: status.timeZone).localDateTime(at: TestClock.process.now()).date
        }
        guard case .success(let today) = LocalDate.parse(text) else {
            throw Refusal.unreadableReply("status.today: \"\(text)\" is not a date")
        }
        return today
    }

    /// The daemon's time zone, for checking items as it will (a rebuy bought "in the future" is
    /// so by its calendar).
    static func zone() throws -> TimeZoneRules {
        zone(named: try call(.status, as: StatusReply.self).timeZone)
    }

    /// A zone this machine's database cannot name (the daemon's `localtime` fallback) is the
    /// system's own, which is what the daemon read.
    private static func zone(named name: String) -> TimeZoneRules {
        (try? ZoneDatabase.shared.zone(named: name)) ?? (try? ZoneDatabase.shared.systemZone()) ?? .utc
    }

    /// The daemon's reply, success or varlink error; only a failed connection throws (exit 69).
    /// `timeoutSeconds` bounds the wait: 30 s for the daemon's own work, longer for `SyncNow`,
    /// which waits for a whole pass over the network.
    static func reply(_ request: ReminderRequest, timeoutSeconds: Int = 30) throws -> VarlinkReply {
        let path = socketPath
        do throws(ReminderProtocolError) {
            let client = try VarlinkClient(path: path, timeoutSeconds: timeoutSeconds)
            return try client.call(request.method.qualifiedName, request.parameters)
        } catch {
            switch error {
            case .unreachable:
                throw Refusal(message: "\(error)\nhint: start it: \(StartHint.reminderd)", exitCode: 69)
            case .requestTooLarge: throw Refusal(message: error.description)
            default: throw Refusal(message: error.description, exitCode: 69)
            }
        }
    }
}

/// Reply printing shared by the commands.
enum Output {
    /// A typed reply read from the daemon's parameters; one it cannot read exits 76
    /// (`Refusal.unreadableReply`: the daemon and this tool are of different versions).
    static func read<Reply>(_ body: () throws -> Reply) throws -> Reply {
        do { return try body() } catch let error as ReminderProtocolError {
            throw Refusal.unreadableReply("\(error)")
        }
    }

    /// A reply's signed decimal amount (`"-12.50"`) in `currency`, with a real minus sign
    /// (`−$12.50`); nil when `text` is not an amount.
    static func money(_ text: String, currency: String) -> String? {
        let negative = text.hasPrefix("-")
        guard case .success(let amount) = Money.parseTotal(negative ? String(text.dropFirst()) : text) else { return nil }
        return (negative ? "−" : "") + amount.formatted(currency: currency, in: TerminalLocale.money)
    }

    /// The reply as pretty JSON with sorted keys. DEL, the C1 controls and the bidi controls
    /// are written as `\u009b`-style escapes (the JSON writer escapes only C0): the text stays
    /// exact for a program that reads it, and harmless on a terminal that shows it.
    static func json(_ value: JSONValue) -> String { json(text: value.text(pretty: true)) }

    /// JSON text written elsewhere (the planner's), escaped as `json(_:)` escapes.
    static func json(text: String) -> String {
        // Outside its strings JSON is ASCII, so each of these is inside a string, where an escape means the same.
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029: return true
            default: return ForeignText.isDirectionControl(scalar)
            }
        }
        // Below DEL, nothing is escaped: a reply in ASCII (most are) is not read scalar by scalar.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in
            for at in bytes.indices where bytes[at] >= 0x7F { return false }
            return true
        }
        if ascii == true { return text }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard escaped(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(out)
    }

    /// A line about the command's input (a date it resolved): on stdout, or on stderr under
    /// `--json` so the JSON stays the only thing on stdout.
    static func note(_ text: String, json: Bool) {
        if json { printError(text) } else { print(text) }
    }

    static func string(_ value: JSONValue?) -> String {
        switch value {
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .number(let number)?: return String(number)
        case .bool(let flag)?: return flag ? "yes" : "no"
        case .array(let elements)?: return elements.map { string($0) }.joined(separator: ", ")
        default: return ""
        }
    }

    /// `2026-11-24T09:00:00-05:00` → `2026-11-24 09:00`, for tables short of room.
    static func compact(_ time: OffsetDateTime?) -> String {
        guard let (local, _) = local(time) else { return "" }
        return "\(local.date) \(local.time.hourMinute)"
    }

    /// A due time as its date, with the time only when it is not the end of the day (23:59, the
    /// due time of anything due "on" a date): `2026-12-31`, `2026-12-31 20:00`.
    static func day(_ time: OffsetDateTime?) -> String {
        let short = compact(time)
        return short.hasSuffix(" 23:59") ? String(short.dropLast(6)) : short
    }

    /// `2026-11-24T09:00:00-05:00` → `Tue 2026-11-24 09:00` for tables (the weekday in the
    /// terminal's language, `DateText.table`); "" for nil.
    static func when(_ time: OffsetDateTime?) -> String {
        guard let (local, _) = local(time) else { return "" }
        return DateText.table(local)
    }

    /// The time as a sentence writes it in the terminal's language: `Tue 2026-11-24 09:00`,
    /// `11월 24일 (화) 09:00`, `Di., 24. Nov., 09:00`; "" for nil.
    static func sentence(_ time: OffsetDateTime?) -> String {
        guard let (local, thisYear) = local(time) else { return "" }
        return DateText.sentence(local, thisYear: thisYear)
    }

    /// Its date alone in a sentence: `Tue 2026-11-24`, `11월 24일 (화)`.
    static func dateInSentence(_ time: OffsetDateTime?) -> String {
        guard let (local, thisYear) = local(time) else { return "" }
        return DateText.sentence(local.date, thisYear: thisYear)
    }

    /// `when` of a time's text; the text itself when it is not RFC 3339.
    static func when(_ time: String?) -> String { parsed(time, when) }

    /// `compact` of a time's text; the text itself when it is not RFC 3339.
    static func compact(_ time: String?) -> String { parsed(time, compact) }

    /// `day` of a time's text; the text itself when it is not RFC 3339.
    static func day(_ time: String?) -> String { parsed(time, day) }

    /// `sentence` of a time's text; the text itself when it is not RFC 3339.
    static func sentence(_ time: String?) -> String { parsed(time, sentence) }

    /// `dateInSentence` of a time's text; the text itself when it is not RFC 3339.
    static func dateInSentence(_ time: String?) -> String { parsed(time, dateInSentence) }

    private static func parsed(_ time: String?, _ format: (OffsetDateTime?) -> String) -> String {
        guard let time else { return "" }
        return OffsetDateTime(time).map { format($0) } ?? time
    }

    /// The wall-clock time a moment names, in its own offset, and the year it is now there.
    private static func local(_ time: OffsetDateTime?) -> (LocalDateTime, Int)? {
        guard let time else { return nil }
        let zone = time.zone
        return (zone.localDateTime(at: time.instant), zone.localDateTime(at: TestClock.process.now()).date.year)
    }
}
