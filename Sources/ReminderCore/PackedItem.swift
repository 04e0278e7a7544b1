import CivilTime

/// An item as a few dozen bytes, for keeping many in memory: the daemon holds every item, and an
/// `Item` is a 184-byte value (optional strings, money and dates at full width) in a dictionary
/// kept under three-quarters full — 330 bytes an item at 10k items (massif), where its bytes
/// here are ~40 in one small array. `item` gives back the equal `Item` (a decode of a few hundred
/// nanoseconds; strings up to 15 bytes allocate nothing).
///
/// Layout: varints (signed ones zigzagged), strings as a length and UTF-8, optionals behind one
/// flag bit each in the first bytes of the item and of its schedule.
public struct PackedItem: Sendable {
    public let bytes: [UInt8]

    public init(_ item: Item) {
        var writer = Writer()
        writer.flags(
            item.id != nil, item.notes != nil, item.lead != nil, item.createdAt != nil, item.currency != nil,
            item.repeatEvery != nil, item.repeatTimes != nil)
        writer.string(item.title)
        if let id = item.id { writer.string(id) }
        if let notes = item.notes { writer.string(notes) }
        if let lead = item.lead {
            writer.unsigned(UInt64(lead.count))
            for duration in lead { writer.duration(duration) }
        }
        if let createdAt = item.createdAt { writer.signed(createdAt) }
        if let currency = item.currency { writer.string(currency) }
        if let every = item.repeatEvery { writer.duration(every) }
        if let times = item.repeatTimes { writer.signed(Int64(times)) }
        switch item.schedule {
        case .benefit(let benefit):
            writer.byte(0)
            writer.flags(
                benefit.card != nil, benefit.amount != nil, benefit.amountUsed != nil, benefit.periodStart != nil,
                benefit.amountUsedPeriod != nil)
            writer.byte(UInt8(Benefit.Period.allCases.firstIndex(of: benefit.period)!))
            if let card = benefit.card { writer.string(card) }
            if let amount = benefit.amount { writer.money(amount) }
            if let used = benefit.amountUsed { writer.money(used) }
            if let start = benefit.periodStart { writer.date(start) }
            if let usedPeriod = benefit.amountUsedPeriod { writer.date(usedPeriod) }
            writer.unsigned(UInt64(benefit.amountIn.count))
            for (month, amount) in benefit.amountIn {
                writer.signed(Int64(month))
                writer.money(amount)
            }
        case .subscription(let subscription):
            writer.byte(1)
            writer.flags(
                subscription.amount != nil, subscription.card != nil, subscription.trialEnds != nil,
                subscription.cancelled != nil)
            if let amount = subscription.amount { writer.money(amount) }
            writer.duration(subscription.every)
            writer.date(subscription.next)
            if let card = subscription.card { writer.string(card) }
            if let trialEnds = subscription.trialEnds { writer.date(trialEnds) }
            if let cancelled = subscription.cancelled { writer.date(cancelled) }
        case .coupon(let coupon):
            writer.byte(2)
            var dateTime = false
            if case .dateTime = coupon.expires { dateTime = true }
            writer.flags(coupon.code != nil, coupon.value != nil, coupon.category != nil, dateTime, coupon.taskList)
            switch coupon.expires {
            case .date(let date): writer.date(date)
            case .dateTime(let moment):
                writer.date(moment.date)
                writer.signed(Int64(moment.time.secondsOfDay))
            }
            if let code = coupon.code { writer.string(code) }
            if let value = coupon.value { writer.money(value) }
            if let category = coupon.category { writer.string(category) }
        case .fee(let fee):
            writer.byte(3)
            writer.flags(fee.card != nil, fee.amount != nil)
            if let card = fee.card { writer.string(card) }
            if let amount = fee.amount { writer.money(amount) }
            writer.date(fee.due)
        case .rebuy(let rebuy):
            writer.byte(4)
            writer.flags(rebuy.category != nil)
            writer.signed(Int64(rebuy.everyDays))
            writer.date(rebuy.lastPurchased)
            if let category = rebuy.category { writer.string(category) }
        }
        // Copied into an array of its own length: the writer's grew by doubling, up to twice that.
        let written = writer.bytes
        bytes = [UInt8](unsafeUninitializedCapacity: written.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: written)
        }
    }

    /// The item these bytes hold.
    public var item: Item {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            let flags = reader.byte()
            let title = reader.string()
            let id = flags & 1 != 0 ? reader.string() : nil
            let notes = flags & 2 != 0 ? reader.string() : nil
            var lead: [CalendarDuration]?
            if flags & 4 != 0 {
                let count = Int(reader.unsigned())
                var durations: [CalendarDuration] = []
                durations.reserveCapacity(count)
                for _ in 0..<count { durations.append(reader.duration()) }
                lead = durations
            }
            let createdAt = flags & 8 != 0 ? reader.signed() : nil
            let currency = flags & 16 != 0 ? reader.string() : nil
            let repeatEvery = flags & 32 != 0 ? reader.duration() : nil
            let repeatTimes = flags & 64 != 0 ? Int(reader.signed()) : nil
            let schedule: Schedule
            switch reader.byte() {
            case 0:
                let flags = reader.byte()
                let period = Benefit.Period.allCases[Int(reader.byte())]
                let card = flags & 1 != 0 ? reader.string() : nil
                let amount = flags & 2 != 0 ? reader.money() : nil
                let used = flags & 4 != 0 ? reader.money() : nil
                let start = flags & 8 != 0 ? reader.date() : nil
                let usedPeriod = flags & 16 != 0 ? reader.date() : nil
                var amountIn: [Int: Money] = [:]
                for _ in 0..<reader.unsigned() {
                    let month = Int(reader.signed())
                    amountIn[month] = reader.money()
                }
                schedule = .benefit(
                    Benefit(
                        card: card, amount: amount, period: period, amountUsed: used, amountUsedPeriod: usedPeriod,
                        periodStart: start, amountIn: amountIn))
            case 1:
                let flags = reader.byte()
                let amount = flags & 1 != 0 ? reader.money() : nil
                let every = reader.duration()
                let next = reader.date()
                let card = flags & 2 != 0 ? reader.string() : nil
                let trialEnds = flags & 4 != 0 ? reader.date() : nil
                let cancelled = flags & 8 != 0 ? reader.date() : nil
                schedule = .subscription(
                    Subscription(
                        amount: amount, every: every, next: next, card: card, trialEnds: trialEnds,
                        cancelled: cancelled))
            case 2:
                let flags = reader.byte()
                let date = reader.date()
                let expires: Coupon.Expiry
                if flags & 8 != 0 {
                    let seconds = Int(reader.signed())
                    expires = .dateTime(
                        LocalDateTime(
                            date: date,
                            time: LocalTime(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60)))
                } else {
                    expires = .date(date)
                }
                let code = flags & 1 != 0 ? reader.string() : nil
                let value = flags & 2 != 0 ? reader.money() : nil
                let category = flags & 4 != 0 ? reader.string() : nil
                schedule = .coupon(
                    Coupon(expires: expires, code: code, value: value, category: category, taskList: flags & 16 != 0))
            case 3:
                let flags = reader.byte()
                let card = flags & 1 != 0 ? reader.string() : nil
                let amount = flags & 2 != 0 ? reader.money() : nil
                schedule = .fee(Fee(card: card, amount: amount, due: reader.date()))
            default:
                let flags = reader.byte()
                let everyDays = Int(reader.signed())
                let last = reader.date()
                let category = flags & 1 != 0 ? reader.string() : nil
                schedule = .rebuy(Rebuy(everyDays: everyDays, lastPurchased: last, category: category))
            }
            return Item(
                id: id, title: title, notes: notes, lead: lead, createdAt: createdAt, currency: currency,
                schedule: schedule, repeatEvery: repeatEvery, repeatTimes: repeatTimes)
        }
    }

    /// The item's title, read without decoding the rest (finding an item by name reads every one).
    public var title: String {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            _ = reader.byte()
            return reader.string()
        }
    }

    /// The item's id, read without decoding the rest.
    public var id: String? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            let flags = reader.byte()
            guard flags & 1 != 0 else { return nil }
            reader.skipString()
            return reader.string()
        }
    }
}

private struct Writer {
    var bytes: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        return bytes
    }()

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// One byte of presence bits: a ninth would shift out of it and read back as absent, so a field
    /// added past the eighth stops here instead of being dropped from every item the daemon holds.
    mutating func flags(_ bits: Bool...) {
        precondition(bits.count <= 8, "PackedItem: \(bits.count) flags do not fit in one byte")
        var value: UInt8 = 0
        for (at, bit) in bits.enumerated() where bit { value |= 1 << at }
        bytes.append(value)
    }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// An item's amount: parsed, so under 10^16 ten-thousandths (`Money.parse`) and in 64 bits.
    mutating func money(_ money: Money) { signed(Int64(clamping: money.tenThousandths)) }

    mutating func date(_ date: LocalDate) {
        signed(Int64(date.year))
        bytes.append(UInt8(truncatingIfNeeded: date.month))
        bytes.append(UInt8(truncatingIfNeeded: date.day))
    }

    mutating func duration(_ duration: CalendarDuration) {
        signed(Int64(duration.count))
        bytes.append(UInt8(CalendarDuration.Unit.allCases.firstIndex(of: duration.unit)!))
    }
}

/// Reads what `Writer` wrote; the bytes are always a `Writer`'s, so it does not check them.
private struct Reader {
    let buffer: UnsafeBufferPointer<UInt8>
    var at = 0

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return buffer[at]
    }

    mutating func unsigned() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = buffer[at]
            at += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() -> Int64 {
        let value = unsigned()
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func string() -> String {
        let count = Int(unsigned())
        defer { at += count }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[at..<at + count]), as: UTF8.self)
    }

    mutating func skipString() { at += Int(unsigned()) }

    mutating func money() -> Money { Money(tenThousandths: Int128(signed())) }

    mutating func date() -> LocalDate {
        let year = Int(signed())
        return LocalDate(uncheckedYear: year, month: Int(byte()), day: Int(byte()))
    }

    mutating func duration() -> CalendarDuration {
        let count = Int(signed())
        return CalendarDuration(count, CalendarDuration.Unit.allCases[Int(byte())])
    }
}
