/// Items as an RFC 5545 calendar: one VEVENT per occurrence in a range, each with one VALARM
/// per reminder at exactly the instant `plan` gives (absolute triggers), so quiet hours, DST and
/// creation times come out as reminderd applies them — which relative triggers on a repeating
/// event could not express.
public enum CalendarExport {
    /// The calendar for `entries` (from `Planner.plan`) of `items`, stamped at `now`.
    public static func ics(items: [Item], entries: [Planner.Entry], now: Int64) -> String {
        var occurrences: [(item: Int, occurrence: Occurrence, alarms: [Int64])] = []
        var index: [String: Int] = [:]
        for entry in entries {
            let key = "\(entry.itemIndex)/\(entry.fire.occurrence.due)"
            if let at = index[key] {
                occurrences[at].alarms.append(entry.fire.fireAt)
            } else {
                index[key] = occurrences.count
                occurrences.append((entry.itemIndex, entry.fire.occurrence, [entry.fire.fireAt]))
            }
        }
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//reminderctl export//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
        ]
        for (itemIndex, occurrence, alarms) in occurrences.sorted(by: {
            ($0.occurrence.due, $0.item) < ($1.occurrence.due, $1.item)
        }) {
            let item = items[itemIndex]
            let id = item.id ?? String(itemIndex + 1)
            let summary = "\(item.title) \(verb(item))"
            lines += [
                "BEGIN:VEVENT", "UID:\(id)-\(occurrence.due)@reminderd", "DTSTAMP:\(utc(now))",
                "DTSTART:\(utc(occurrence.due))",
                "DURATION:PT1M", "SUMMARY:\(escape(summary))", "CATEGORIES:\(item.kind.rawValue.uppercased())",
            ]
            if let description = description(item) { lines.append("DESCRIPTION:\(escape(description))") }
            for alarm in alarms.sorted() {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(summary))",
                    "TRIGGER;VALUE=DATE-TIME:\(utc(alarm))", "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    static func verb(_ item: Item) -> String {
        switch item.schedule {
        case .benefit, .coupon: return "expires"
        case .subscription: return "renews"
        case .fee: return "annual fee due"
        case .rebuy: return "runs out"
        }
    }

    static func description(_ item: Item) -> String? {
        var parts: [String] = []
        let currency = item.currency ?? "USD"
        switch item.schedule {
        case .benefit(let b):
            if let card = b.card { parts.append(card) }
            if let amount = b.amount { parts.append(amount.formatted(currency: currency)) }
        case .subscription(let s):
            if let amount = s.amount {
                parts.append(amount.formatted(currency: currency) + NotificationText.per(s.every))
            }
            if let card = s.card { parts.append("on \(card)") }
        case .coupon(let c):
            if let code = c.code { parts.append("code \(code)") }
        case .fee(let f):
            if let card = f.card { parts.append(card) }
            if let amount = f.amount { parts.append(amount.formatted(currency: currency)) }
        case .rebuy(let r):
            if let category = r.category { parts.append(category) }
        }
        if let notes = item.notes { parts.append(notes) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `20261124T140000Z`.
    static func utc(_ instant: Int64) -> String {
        let local = LocalDateTime(localSeconds: instant)
        let t = local.time
        return
            "\(pad(local.date.year, 4))\(pad(local.date.month, 2))\(pad(local.date.day, 2))T\(pad(t.hour, 2))\(pad(t.minute, 2))\(pad(t.second, 2))Z"
    }

    /// TEXT escaping (RFC 5545 §3.3.11).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Lines of at most 75 octets, continued with a leading space (§3.1), never splitting a
    /// UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var result = ""
        var count = 0
        for character in line {
            let size = character.utf8.count
            if count + size > 75 {
                result += "\r\n "
                count = 1
            }
            result.append(character)
            count += size
        }
        return result
    }
}
