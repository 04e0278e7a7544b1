import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderTestSupport
import Testing

@testable import ReminderDaemon

/// Issue 19's model-based test at the sync level: three devices (engines on their own stores) and
/// a phone writing the task list directly make random Dones, Undos, edits, snoozes, removals and
/// re-adds, through device outages, refused writes (412, 503), engine restarts and a server that
/// forgets its sync tokens. After every device syncs until nothing waits, all hold the same
/// items, no uid twice, one resource each — and a reference model of what each operation knew
/// when it was made says what must have survived (docs/SYNC.md, "Disagreements";
/// docs/SYNC-FORMAT.md, "Merging"): nothing lost.
///
/// `REMINDERD_SYNC_MODEL_SEEDS=N` runs seeds 0..<N (8 by default), `REMINDERD_SYNC_MODEL_SEED=N`
/// replays one; a failure names its seed and lists the steps.
@Suite struct EngineSyncModelTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let one = environment["REMINDERD_SYNC_MODEL_SEED"].flatMap({ UInt64($0) }) { return [one] }
        return Array(0..<(environment["REMINDERD_SYNC_MODEL_SEEDS"].flatMap { UInt64($0) } ?? 8))
    }()

    @Test(arguments: seeds)
    func devicesAndAPhoneConvergeWithNothingLost(seed: UInt64) throws {
        let run = try SyncModelRun(seed: seed)
        for step in 1...60 { try run.step(step) }
        run.quiesce()
        let problems = run.check()
        if ProcessInfo.processInfo.environment["REMINDERD_SYNC_MODEL_TRACE"] != nil {
            print("seed \(seed):\n" + (run.trace + run.determined).joined(separator: "\n"))
        }
        #expect(
            problems.isEmpty,
            Comment(
                rawValue:
                    "seed \(seed) (replay: REMINDERD_SYNC_MODEL_SEED=\(seed)):\n\(problems.joined(separator: "\n"))\nsteps:\n"
                    + run.trace.joined(separator: "\n")))
    }
}

/// One change made by a device or the phone, with what its maker had seen then.
struct SyncModelOp {
    enum Kind: Equatable {
        case add(title: String)
        case done(added: [Int64])
        case undo
        case title(String)
        case snooze, remove
        case phoneSummary(String)
        case phoneTick, phoneUntick, phoneMove, phoneDelete
    }

    let index: Int
    /// A device's index, or `SyncModelRun.phone`.
    let actor: Int
    let uid: String
    let kind: Kind
    /// The ops whose outcome its maker had seen (pulled, or made itself) when it made this one.
    let knew: Set<Int>
    /// A device's ledger of the item right after a Done or Undo: done dues and amountUsed.
    var ledger: String?

    var isRemoval: Bool { kind == .remove || kind == .phoneDelete }
    var isUnmark: Bool { kind == .undo || kind == .phoneUntick }
    var isLedger: Bool {
        if case .done = kind { return true }
        return kind == .undo || kind == .phoneTick || kind == .phoneUntick
    }
    /// The title it wrote, if it wrote one.
    var title: String? {
        switch kind {
        case .add(let title), .title(let title), .phoneSummary(let title): title
        default: nil
        }
    }
}

/// The devices, the server, the phone and the reference model of one seeded run.
final class SyncModelRun {
    static let phone = 3
    static let phoneProdid = "PRODID:+//IDN tasks.org//android-140107//EN"

    let seed: UInt64
    private var random: SplitMix64
    let server = FakeTaskList()
    let devices: [EngineHarness]
    /// Steps each device stays offline (not syncing).
    private var offline = [0, 0, 0]
    private(set) var ops: [SyncModelOp] = []
    /// Per device, the ops it has seen; `serverSeen`, the ops the server's copies hold.
    private var seen: [Set<Int>] = [[], [], []]
    private var serverSeen: Set<Int> = []
    private(set) var trace: [String] = []
    /// What `check` found determined, for REMINDERD_SYNC_MODEL_TRACE.
    private(set) var determined: [String] = []
    private var added = 0

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix64(seed: seed &* 0xD1B5_4A32_D192_ED03 &+ 19)
        server.incremental = true
        devices = [try EngineHarness(), try EngineHarness(), try EngineHarness()]
        addItem(0, template: 0)
        addItem(1, template: 1)
        addItem(2, template: 2)
        for _ in 0..<2 { for device in 0..<3 { sync(device) } }
        trace.append("(setup: three items, every device synced twice)")
    }

    /// The UID of a resource's VTODO; a resource without one fails the test (the server holds
    /// only what the devices and the phone wrote, every one with a UID).
    static func uid(of body: String) -> String {
        guard let match = body.firstMatch(of: /BEGIN:VTODO\r\n(?:[^\r\n]*\r\n)*?UID:([^\r\n]+)\r\n/) else {
            Issue.record("a resource on the server without a VTODO UID:\n\(body)")
            return "no UID: \(body.hashValue)"
        }
        return String(match.1)
    }

    /// Where the item's add is among the ops: what orders items in a replay (not their random uids).
    private func addOrder(_ uid: String) -> Int {
        ops.firstIndex { $0.uid == uid && { if case .add = $0.kind { true } else { false } }($0) } ?? -1
    }

    private func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

    private func uid(_ device: Int, _ id: String) -> String {
        let engine = devices[device].engine
        guard let uid = engine.queue.sync(execute: { engine.sync.uids(of: [id]) }).first else {
            Issue.record("d\(device)'s item \(id) has no sync uid")
            return "no uid: d\(device) \(id)"
        }
        return uid
    }

    private func record(_ actor: Int, _ uid: String, _ kind: SyncModelOp.Kind, ledger: String? = nil, _ note: String) {
        let index = ops.count
        let knew = actor == SyncModelRun.phone ? serverSeen : seen[actor]
        ops.append(SyncModelOp(index: index, actor: actor, uid: uid, kind: kind, knew: knew, ledger: ledger))
        if actor == SyncModelRun.phone { serverSeen.insert(index) } else { seen[actor].insert(index) }
        trace.append("  op\(index) \(actor == SyncModelRun.phone ? "phone" : "d\(actor)") \(note) \(uid.prefix(8))")
    }

    /// What the item's ledger is on `device`: its done dues and amountUsed.
    private func ledger(_ device: Int, _ id: String) -> String {
        "\(devices[device].doneDues(id)) used \(devices[device].field(id, "amountUsed") ?? "-")"
    }

    private func addItem(_ device: Int, template: Int) {
        added += 1
        let harness = devices[device]
        let title: String
        let id: String
        switch template % 3 {
        case 0:
            title = "Uber Cash \(added)"
            id = harness.add([
                "kind": "benefit", "title": title, "card": "Amex Platinum", "amount": "15", "period": "monthly",
            ])
        case 1:
            title = "Deal \(added)"
            id = harness.addCoupon(expiresIn: 20 * 86_400, leads: ["1d"], title: title)
        default:
            title = "Netflix \(added)"
            id = harness.add([
                "kind": "subscription", "title": title, "amount": "15.49", "every": "1mo", "next": "2026-12-05",
            ])
        }
        record(device, uid(device, id), .add(title: title), "add \(title)")
    }

    /// One pass of `device`; the model learns what it pulled and what the server took.
    func sync(_ device: Int) {
        server.sync(devices[device].engine)
        seen[device].formUnion(serverSeen)
        let waiting = Set(devices[device].pending.map(\.uid))
        for op in seen[device] where !waiting.contains(ops[op].uid) { serverSeen.insert(op) }
    }

    func step(_ step: Int) throws {
        for harness in devices { harness.clock.set(EngineHarness.start + Int64(step) * 60) }
        for device in 0..<3 where offline[device] > 0 { offline[device] -= 1 }
        let device = pick(3)
        let roll = pick(100)
        trace.append("s\(step)")
        switch roll {
        case 0..<42: deviceOp(device, step)
        case 42..<67:
            if offline[device] > 0 {
                trace.append("  d\(device) offline, no sync")
            } else {
                trace.append("  d\(device) sync")
                sync(device)
            }
        case 67..<81: phoneOp(step)
        case 81..<85:
            trace.append("  d\(device) restarts")
            try devices[device].restart()
        case 85..<90:
            offline[device] = 2 + pick(6)
            trace.append("  d\(device) offline for \(offline[device]) steps")
        case 90..<96 where offline[device] == 0:
            server.refusal = pick(2) == 0 ? 412 : 503
            trace.append("  d\(device) sync, the server refusing writes with \(server.refusal!)")
            sync(device)
            server.refusal = nil
        case 96..<100:
            trace.append("  server forgets its sync tokens")
            server.forgetTokens()
        default: break
        }
    }

    private func deviceOp(_ device: Int, _ step: Int) {
        let harness = devices[device]
        // In the order the items were added: pulls come in href order, and hrefs are random.
        let ids = harness.ids.sorted { addOrder(self.uid(device, $0)) < addOrder(self.uid(device, $1)) }
        let roll = pick(20)
        if ids.isEmpty || (roll == 19 && ids.count < 7) {
            addItem(device, template: pick(3))
            return
        }
        let id = ids[pick(ids.count)]
        let uid = uid(device, id)
        func succeeded(_ reply: VarlinkReply) -> Bool {
            if case .success = reply { return true }
            return false
        }
        switch roll {
        case 0..<6:
            let before = Set(harness.doneDues(id))
            var parameters: [String: JSONValue] = ["id": .string(id), "early": .bool(true)]
            if harness.field(id, "kind") == "benefit", pick(3) == 0 { parameters["amount"] = .string("5") }
            guard succeeded(harness.perform("Done", parameters)) else { return }
            let added = harness.doneDues(id).filter { !before.contains($0) }
            record(
                device, uid, .done(added: added), ledger: ledger(device, id),
                "Done\(parameters["amount"] == nil ? "" : " 5") +\(added)")
        case 6..<9:
            guard succeeded(harness.perform("Undo", ["id": .string(id)])) else { return }
            record(device, uid, .undo, ledger: ledger(device, id), "Undo")
        case 9..<14:
            let title = "Title s\(step)"
            guard
                succeeded(harness.perform("Edit", ["id": .string(id), "changes": .object(["title": .string(title)])]))
            else { return }
            record(device, uid, .title(title), "edit \(title)")
        case 14..<16:
            guard succeeded(harness.perform("Snooze", ["id": .string(id), "duration": .string("\(1 + pick(3))h")]))
            else { return }
            record(device, uid, .snooze, "Snooze")
        default:
            guard succeeded(harness.perform("Remove", ["id": .string(id)])) else { return }
            record(device, uid, .remove, "Remove")
        }
    }

    /// The phone (Tasks.org) GETs a resource of reminderd's and writes it back changed.
    private func phoneOp(_ step: Int) {
        // In the order the items were added: hrefs are random, and a replay must pick the same.
        let items = server.resources.keys.filter { server.resources[$0]!.body.contains("X-REMINDERD-KIND") }
            .map { (href: $0, uid: SyncModelRun.uid(of: server.resources[$0]!.body)) }
            .sorted { addOrder($0.uid) < addOrder($1.uid) }
        guard !items.isEmpty else { return }
        let (href, uid) = items[pick(items.count)]
        let body = server.resources[href]!.body
        func write(_ changed: String) {
            server.put(
                href,
                changed.replacingOccurrences(
                    of: "PRODID:-//reminderd//reminderd-sync//EN", with: SyncModelRun.phoneProdid))
        }
        let now = Timestamp.format(devices[0].clock.now, in: .utc).filter { $0 != "-" && $0 != ":" }
        switch pick(10) {
        case 0..<3:
            let title = "Phone s\(step)"
            write(
                body.replacing(
                    /\r\nSUMMARY[;:][^\r\n]*(?:\r\n[ \t][^\r\n]*)*/, with: "\r\nSUMMARY:\(title)", maxReplacements: 1))
            record(SyncModelRun.phone, uid, .phoneSummary(title), "SUMMARY \(title)")
        case 3..<5 where body.contains("STATUS:NEEDS-ACTION"):
            write(
                body.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:\(now)")
                    .replacingOccurrences(of: "PERCENT-COMPLETE:0\r\n", with: "PERCENT-COMPLETE:100\r\n"))
            record(SyncModelRun.phone, uid, .phoneTick, "tick")
        case 5..<7 where body.contains("STATUS:COMPLETED"):
            write(
                body.replacingOccurrences(of: "STATUS:COMPLETED", with: "STATUS:NEEDS-ACTION")
                    .replacingOccurrences(of: "PERCENT-COMPLETE:100", with: "PERCENT-COMPLETE:0")
                    .replacing(/\r\nCOMPLETED:[0-9TZ]+/, with: ""))
            record(SyncModelRun.phone, uid, .phoneUntick, "untick")
        case 7..<9 where body.contains("X-REMINDERD-KIND:subscription"):
            guard let due = body.firstMatch(of: /DUE;TZID=UTC:([0-9]{8})T/).map({ String($0.1) }) else { return }
            let day = Int(due.suffix(2))!
            let moved = due.prefix(6) + String(format: "%02d", day < 28 ? day + 1 : day - 1)
            write(body.replacingOccurrences(of: "TZID=UTC:\(due)T", with: "TZID=UTC:\(moved)T"))
            record(SyncModelRun.phone, uid, .phoneMove, "moves the date \(due) to \(moved)")
        case 9:
            server.delete(href)
            record(SyncModelRun.phone, uid, .phoneDelete, "deletes the resource")
        default: break
        }
    }

    /// Every device syncs, online and answered, until a round leaves nothing waiting and writes
    /// nothing.
    func quiesce() {
        trace.append("quiescence")
        for round in 0..<8 {
            let writes = server.writes
            for device in 0..<3 { sync(device) }
            if server.writes == writes, devices.allSatisfy({ $0.pending.isEmpty }) { return }
            if round == 7 { trace.append("  still writing after 8 rounds") }
        }
    }

    /// Each device's items by uid: every field but the local id, the done dues.
    func state(_ device: Int) -> [String: String] {
        let harness = devices[device]
        let ids = harness.ids
        let uids = harness.engine.queue.sync { harness.engine.sync.uids(of: ids) }
        var state: [String: String] = [:]
        for (id, uid) in zip(ids, uids) {
            let item = harness.engine.queue.sync { harness.engine.items[id]?.json }
            guard case .object(var fields)? = item else { continue }
            fields["id"] = nil
            let text = fields.keys.sorted().map { "\($0)=\(fields[$0]!)" }.joined(separator: " ")
            state[uid] = "\(text) done \(harness.doneDues(id))"
        }
        return state
    }

    /// What is wrong after quiescence, in words; empty when the copies agree and nothing is lost.
    func check() -> [String] {
        var problems: [String] = []
        let states = (0..<3).map(state)
        for device in 0..<3 {
            let ids = devices[device].ids
            let uids = devices[device].engine.queue.sync { devices[device].engine.sync.uids(of: ids) }
            if uids.count != ids.count || Set(uids).count != uids.count {
                problems.append("d\(device): \(ids.count) items with \(Set(uids).count) distinct uids")
            }
            if !devices[device].pending.isEmpty { problems.append("d\(device): changes still waiting") }
            if device > 0, states[device] != states[0] {
                for uid in Set(states[0].keys).union(states[device].keys).sorted()
                where states[0][uid] != states[device][uid] {
                    problems.append(
                        "d0 and d\(device) differ on \(uid.prefix(8)): \(states[0][uid] ?? "absent") | "
                            + "\(states[device][uid] ?? "absent")")
                }
            }
        }
        let serverUIDs = server.resources.values.map { SyncModelRun.uid(of: $0.body) }
        if Set(serverUIDs) != Set(states[0].keys) || serverUIDs.count != states[0].count {
            problems.append("the server holds \(serverUIDs.count) resources for \(states[0].count) items")
        }
        let final = states[0]
        let finalDone = Dictionary(
            uniqueKeysWithValues: devices[0].ids.map { (uid(0, $0), (Set(devices[0].doneDues($0)), ledger(0, $0))) })
        let finalTitle = Dictionary(
            uniqueKeysWithValues: devices[0].ids.map { (uid(0, $0), devices[0].field($0, "title") ?? "") })
        for uid in Set(ops.map(\.uid)).sorted() {
            let itemOps = ops.filter { $0.uid == uid }
            let removals = itemOps.filter(\.isRemoval)
            let present = final[uid] != nil
            let name = uid.prefix(8)
            let others = itemOps.filter { !$0.isRemoval }
            let uncontested = removals.first { removal in others.allSatisfy { removal.knew.contains($0.index) } }
            let noUnmarks = !itemOps.contains(where: \.isUnmark)
            /// A title change raced by another that neither knew of: when both reach a device,
            /// the one already on the server wins (SYNC-FORMAT, "Merging") and the other is a
            /// conflict, so which survives to contest a removal depends on who synced first (seed 16).
            func raced(_ op: SyncModelOp) -> Bool {
                others.contains {
                    $0.index != op.index && $0.title != nil && !op.knew.contains($0.index) && !$0.knew.contains(op.index)
                }
            }
            /// A change that a removal not knowing it cannot undo: a new title not raced by
            /// another. A Done is no edit (docs/SYNC.md): a removal that meets one made elsewhere
            /// goes ahead, while one made here keeps the item against a removal pulled later — so
            /// a Done concurrent with a removal leaves the outcome to who synced first (seed 123).
            func keeps(_ op: SyncModelOp) -> Bool {
                if case .add = op.kind { return false }
                return op.title != nil && !raced(op)
            }
            determined.append(
                "\(name) \(present ? "present" : "gone"): \(removals.count) removals, uncontested: \(uncontested != nil)"
            )
            /// Whether a change the removal did not know would keep the item.
            func contested(_ removal: SyncModelOp) -> Bool {
                others.contains { keeps($0) && !removal.knew.contains($0.index) }
            }
            if removals.isEmpty {
                if !present { problems.append("\(name): never removed, yet gone (lost)") }
            } else if let removal = uncontested {
                if present {
                    problems.append("\(name): removed by op\(removal.index), which knew every change, yet here")
                }
            } else if removals.allSatisfy(contested) {
                if !present { problems.append("\(name): every removal was concurrent with an edit, yet gone") }
            }
            guard present else { continue }
            /// Whether a removal saw `op` (and so may have thrown it away with the item).
            func removedAfterSeeing(_ op: SyncModelOp) -> Bool { removals.contains { $0.knew.contains(op.index) } }
            // An Undo restores the item as it was before its latest Done, an edit since included
            // (docs/CONTRACT.md): it writes a title the model does not follow.
            let titles = itemOps.filter { $0.title != nil || $0.kind == .undo }
            if let last = titles.last, last.title != nil, !removedAfterSeeing(last),
                titles.dropLast().allSatisfy({ last.knew.contains($0.index) }), finalTitle[uid] != last.title
            {
                problems.append(
                    "\(name): op\(last.index)'s title \(last.title!) came after every other, yet the title is "
                        + "\(finalTitle[uid] ?? "-")")
            }
            if noUnmarks {
                for op in itemOps where !removedAfterSeeing(op) {
                    guard case .done(let dues) = op.kind else { continue }
                    let missing = dues.filter { !(finalDone[uid]?.0.contains($0) ?? false) }
                    if !missing.isEmpty { problems.append("\(name): op\(op.index)'s Done of \(missing) is lost") }
                }
            }
            let ledgerOps = itemOps.filter(\.isLedger)
            if let last = ledgerOps.last, last.actor != SyncModelRun.phone,
                ledgerOps.allSatisfy({ $0.actor == last.actor }), !removedAfterSeeing(last),
                finalDone[uid]?.1 != last.ledger
            {
                problems.append(
                    "\(name): only d\(last.actor) marked it, its ledger after op\(last.index) was \(last.ledger ?? "-"), "
                        + "now \(finalDone[uid]?.1 ?? "-")")
            }
        }
        return problems
    }
}
