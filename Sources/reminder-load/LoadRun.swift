import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Synchronization

/// Clients that each open a connection and send requests one after another as fast as the
/// replies come, timing every round trip.
struct LoadRun {
    let path: String
    let clients: Int
    let requestsPerClient: Int
    /// Whether the other end is reminderd (replies are checked) or the echo server.
    let checkReplies: Bool

    /// One client's round trips (µs) and failed requests.
    private func runClient(_ client: Int) -> ([Double], Int) {
        var mine: [Double] = []
        mine.reserveCapacity(requestsPerClient)
        var ownIds: [String] = []
        var failed = 0
        do {
            let connection = try VarlinkClient(path: path, timeoutSeconds: 60)
            for n in 0..<requestsPerClient {
                let call = LoadRun.request(n, client: client, ownIds: &ownIds)
                let bytes = call.bytes
                let sent = DispatchTime.now().uptimeNanoseconds
                try connection.send(bytes)
                let reply = try connection.receive()
                mine.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1000)
                guard checkReplies else { continue }
                switch try? VarlinkReply(bytes: reply) {
                case .success(let parameters)?:
                    if case .string(let id)? = parameters["id"], call.method == ReminderMethod.add.qualifiedName {
                        ownIds.append(id)
                    }
                default:
                    failed += 1
                    if failed == 1 { report("\(call.method) failed: \(String(decoding: reply, as: UTF8.self))") }
                }
            }
        } catch {
            report("client \(client): \(error)")
            return (mine, failed + requestsPerClient - mine.count)
        }
        return (mine, failed)
    }

    struct Figures: Codable {
        var requests = 0
        var errors = 0
        var seconds = 0.0
        var p50Microseconds = 0.0
        var p99Microseconds = 0.0
        var maxMicroseconds = 0.0
        var perSecond = 0.0
    }

    /// The mixed request stream of client `client`, per 20 requests: 8 Status, 2 Upcoming, 1 List,
    /// 2 Get, 1 Explain (70% reads) and 2 Add, 2 Edit, 2 Remove of the client's own coupons, so the
    /// number of items stays where it started (the ids come from the replies; against the echo
    /// server, whose replies hold none, those turn into Status).
    static func request(_ n: Int, client: Int, ownIds: inout [String]) -> VarlinkCall {
        let own = ownIds.last.map { JSONValue.string($0) }
        switch (n % 20, own) {
        case (8, _), (9, _): return VarlinkCall(.upcoming, parameters: ["days": .integer(1)])
        case (10, _): return VarlinkCall(.list, parameters: ["kind": .string("fee")])
        case (11, let id?), (12, let id?): return VarlinkCall(.get, parameters: ["id": id])
        case (13, _), (14, _):
            let item: JSONValue = .object([
                "kind": .string("coupon"), "title": .string("Load coupon \(client)-\(n)"),
                "expires": .string("2031-06-30"),
            ])
            return VarlinkCall(.add, parameters: ["item": item])
        case (15, let id?), (16, let id?):
            return VarlinkCall(
                .edit, parameters: ["id": id, "changes": .object(["notes": .string("n\(n)")])])
        case (17, _?), (18, _?):
            return VarlinkCall(.remove, parameters: ["id": .string(ownIds.removeFirst())])
        case (19, let id?): return VarlinkCall(.explain, parameters: ["id": id])
        default: return VarlinkCall(.status)
        }
    }

    func run() -> Figures {
        let results = Mutex<(samples: [Double], errors: Int)>(([], 0))
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        for client in 0..<clients {
            Thread { [self] in
                let (mine, failed) = runClient(client)
                results.withLock {
                    $0.samples += mine
                    $0.errors += failed
                }
                done.signal()
            }.start()
        }
        for _ in 0..<clients { done.wait() }
        var (samples, errors) = results.withLock { $0 }
        let seconds = Date().timeIntervalSince(start)
        samples.sort()
        var figures = Figures()
        figures.requests = samples.count
        figures.errors = errors
        figures.seconds = seconds
        figures.perSecond = Double(samples.count) / seconds
        if !samples.isEmpty {
            figures.p50Microseconds = samples[samples.count / 2]
            figures.p99Microseconds = samples[min(samples.count - 1, samples.count * 99 / 100)]
            figures.maxMicroseconds = samples.last!
        }
        return figures
    }
}
