import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A streamed reply (`List`, `Export`) is written as the socket drains: a client that does not
/// read holds a chunk of it, not the whole (at 100k items, 22 MiB of `list` each once); one that
/// reads gets the same bytes as the reply built whole, and the replies after it in order.
@Suite struct StreamedReplyTests {
    /// `count` elements of about 1 KiB each under `"items"`, as `ListWriter` writes them.
    struct Elements: VarlinkReplyWriter {
        let count: Int

        func write(from cursor: inout VarlinkReplyCursor, into out: inout [UInt8], atLeast bytes: Int) -> Bool {
            ArrayParts.write(
                from: &cursor, into: &out, atLeast: bytes, prefix: #"{"items":["#, count: count,
                element: { $0 % 7 == 3 ? nil : .string("\($0) " + String(repeating: "x", count: 1_000)) },
                suffix: { $0 += Array("]}".utf8) })
        }
    }

    let large = VarlinkReply.streamed(Elements(count: 20_000))  // ~17 MiB

    @Test func aClientThatDoesNotReadHoldsAChunkNotTheWholeReply() throws {
        let connection = EmbeddedConnection(room: 0) { call in
            call.method.hasSuffix(".List") ? .reply(large, changes: false) : .reply(reply("Get"), changes: false)
        }
        connection.receive(call("List") + call("Get") + call("List"))
        #expect(!connection.closed)
        #expect(connection.state.unsent.count <= 2 * ConnectionState.streamChunk)
        #expect(connection.watchingWritable)
        // Read slowly, then all: the bytes are those of the replies built whole, in call order.
        for _ in 0..<10 { connection.makeRoom(10_000) }
        #expect(connection.state.unsent.count <= 2 * ConnectionState.streamChunk)
        connection.makeRoom(64 << 20)
        #expect(try connection.replies() == [large, reply("Get"), large])
        #expect(connection.state.isIdle)
        #expect(connection.largeOutputs == 1)
    }

    @Test func aClientThatReadsGetsTheReplyInLargeWrites() throws {
        let connection = EmbeddedConnection { _ in .reply(large, changes: false) }
        connection.receive(call("List"))
        #expect(try connection.replies() == [large])
        // ~17 MiB in 64 KiB parts: a write per chunk, not per element.
        #expect(connection.writes < 400)
    }

    @Test func theWriterStopsAfterAChunkAndResumesWhereItWas() {
        let writer = Elements(count: 100)
        var cursor = VarlinkReplyCursor()
        var parts: [UInt8] = []
        var rounds = 0
        while !writer.write(from: &cursor, into: &parts, atLeast: 5_000) { rounds += 1 }
        #expect(rounds > 10)
        var whole: [UInt8] = []
        var fresh = VarlinkReplyCursor()
        #expect(writer.write(from: &fresh, into: &whole, atLeast: .max))
        #expect(parts == whole)
        guard case .object(let object) = try? JSONValue.parse(whole, source: "test"),
            case .array(let items)? = object["items"]
        else {
            Issue.record("not an object of items")
            return
        }
        #expect(items.count == 100 - 14)
    }
}
