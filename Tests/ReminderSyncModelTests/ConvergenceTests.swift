import CivilTime
import ICalendar
import ReminderCore
import ReminderSyncModel
import ReminderTestSupport
import Testing

/// Random interleavings of Done, Undo, edits and acknowledgements on two devices and a phone
/// that rolls the master Apple-style, with syncs in random order through one server resource
/// (every write goes through the VTODO writer and reader). After quiescence both devices and
/// the server hold the same record; no occurrence is in the ledger twice; every Done that no one
/// undid after it is in the ledger once; and an Undo made after its device had seen every
/// earlier Done and Undo of that occurrence, and followed by none, leaves it out.
@Suite struct ConvergenceTests {
    struct Device {
        var local: SyncRecord
        var base: SyncRecord?
        /// The Done and Undo events (by step) this device has made or received.
        var known: Set<Int64> = []
    }

    /// One Done or Undo of an occurrence.
    struct Event {
        let step: Int64
        let isDone: Bool
        /// For an Undo: whether its device knew every earlier event of the occurrence.
        let sawAll: Bool
    }

    struct World {
        var generator: SplitMix64
        var devices: [Device]
        var server: Component?
        var serverKnows: Set<Int64> = []
        var events: [LocalDateTime: [Event]] = [:]
        var step: Int64 = 0

        var context: SyncContext { Kit.context }
        let occurrences: [Occurrence] = {
            var found: [Occurrence] = []
            Kit.context.rules.forEachOccurrence(of: Kit.uber, dueAfter: Kit.now, before: Kit.now + 80 * 86_400) {
                found.append($0)
                return true
            }
            return found
        }()

        mutating func random(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }

        /// Pull, merge, push: one device's sync, atomic against the other's.
        mutating func sync(_ index: Int) throws {
            var device = devices[index]
            var body = VTodoWriter.write(device.local, uid: Kit.uid, into: nil, context: context)
            if let server {
                let remote = try VTodoReader.read(server, name: "item.ics", context: context).record
                let merged = SyncMerge.merge(base: device.base, local: device.local, remote: remote, zone: Kit.newYork)
                body = VTodoWriter.write(merged.record, uid: Kit.uid, into: server, context: context)
            }
            server = body
            device.local = try VTodoReader.read(body, name: "item.ics", context: context).record
            device.base = device.local
            serverKnows.formUnion(device.known)
            device.known = serverKnows
            devices[index] = device
        }

        mutating func act() throws {
            step += 1
            let index = random(devices.count)
            let occurrence = occurrences[random(occurrences.count)]
            let key = occurrence.key
            switch random(9) {
            case 0, 1:
                guard !devices[index].local.ledger.contains(key) else { return }
                devices[index].local.markDone(occurrence, at: Kit.now + step, in: context)
                record(Event(step: step, isDone: true, sawAll: true), of: key, by: index)
            case 2, 3:
                guard devices[index].local.ledger.contains(key) else { return }
                devices[index].local.undoDone(key)
                let sawAll = (events[key] ?? []).allSatisfy { devices[index].known.contains($0.step) }
                record(Event(step: step, isDone: false, sawAll: sawAll), of: key, by: index)
            case 4: devices[index].local.item.title = "Uber Cash \(random(3))"
            case 5:
                devices[index].local.alarms = AlarmState(
                    lastAcknowledged: Kit.now + step, snoozedUntil: Kit.now + step + Int64(random(2)) * 600)
            case 6: try phoneRoll()
            default: try sync(index)
            }
        }

        mutating func record(_ event: Event, of key: LocalDateTime, by device: Int?) {
            events[key, default: []].append(event)
            if let device { devices[device].known.insert(event.step) } else { serverKnows.insert(event.step) }
        }

        /// The phone completes the occurrence the server shows by moving DUE and DTSTART to the
        /// next one, keeping everything else (an unconditional write).
        mutating func phoneRoll() throws {
            guard var server, let index = server.components.firstIndex(where: { $0.name == "VTODO" }) else { return }
            var todo = server.components[index]
            guard let due = todo.property("DUE")?.value,
                let position = occurrences.firstIndex(where: {
                    DateTimeValue(local: $0.key, zoneID: nil).description == due
                }),
                position + 1 < occurrences.count
            else { return }
            let next = DateTimeValue(local: occurrences[position + 1].key, zoneID: Kit.newYork.identifier)
            todo.set(next.property("DUE"))
            todo.set(next.property("DTSTART"))
            todo.set("LAST-MODIFIED", DateTimeValue.utc(Kit.now + step).description)
            server.components[index] = todo
            server.set("PRODID", "-//Apple Inc.//iOS 18.1//EN")
            self.server = server
            record(Event(step: step, isDone: true, sawAll: true), of: occurrences[position].key, by: nil)
        }
    }

    @Test(arguments: 0..<100)
    func replicasConverge(seed: UInt64) throws {
        var world = World(
            generator: SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1),
            devices: [Device(local: SyncRecord(item: Kit.uber)), Device(local: SyncRecord(item: Kit.uber))])
        try world.sync(0)
        try world.sync(1)
        for _ in 0..<50 { try world.act() }
        for index in [0, 1, 0, 1] { try world.sync(index) }

        let server = try #require(world.server)
        let final = try VTodoReader.read(server, name: "item.ics", context: world.context).record
        #expect(world.devices[0].local == final, "seed \(seed)")
        #expect(world.devices[1].local == final, "seed \(seed)")
        let done = server.components.last!.properties("X-REMINDERD-DONE").map { $0.value.prefix(15) }
        #expect(Set(done).count == done.count, "seed \(seed): an occurrence is in the ledger twice")
        for (key, events) in world.events {
            guard let last = events.last else { continue }
            if last.isDone {
                #expect(final.ledger.contains(key), "seed \(seed): the Done of \(key) is lost")
            } else if last.sawAll {
                #expect(!final.ledger.contains(key), "seed \(seed): the Undo of \(key) is lost")
            }
        }
    }
}

extension Occurrence {
    var key: LocalDateTime { LocalDateTime(date: dueDate, time: FireTimeRules.endOfDay) }
}
