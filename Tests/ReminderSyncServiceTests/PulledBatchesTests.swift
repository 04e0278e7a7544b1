import ReminderJSON
import ReminderProtocol
import ReminderSyncService
import Testing

@Suite struct PulledBatchesTests {
    func resource(_ index: Int, bytes: Int) -> SyncResource {
        SyncResource(href: "/alice/reminderd/\(index).ics", etag: "\"\(index)\"", body: String(repeating: "a", count: bytes))
    }

    @Test func entriesGoInOrderIntoBatchesUnderTheLimit() throws {
        var batches = PulledBatches(limit: 1_000)
        var sent: [PulledBatch] = []
        for index in 0..<10 {
            if let full = try batches.add(resource(index, bytes: 300)) { sent.append(full) }
        }
        if let full = batches.remove("/alice/reminderd/gone.ics") { sent.append(full) }
        sent.append(batches.finish())
        #expect(sent.flatMap(\.resources).map(\.href) == (0..<10).map { "/alice/reminderd/\($0).ics" })
        #expect(sent.flatMap(\.removed) == ["/alice/reminderd/gone.ics"])
        for batch in sent {
            let bytes = batch.resources.reduce(0) { $0 + $1.json.serialized().count + 1 }
            #expect(bytes <= 1_000 && !batch.isEmpty)
        }
        #expect(sent.count == 5)
        #expect(batches.finish().isEmpty)
    }

    /// Escaping counts: a body of line breaks is twice its bytes in JSON.
    @Test func sizesAreMeasuredAsWritten() throws {
        var batches = PulledBatches(limit: 1_000)
        let lines = SyncResource(href: "/a.ics", etag: nil, body: String(repeating: "\r\n", count: 200))
        #expect(try batches.add(lines) == nil)
        #expect(try batches.add(lines)?.resources == [lines])
    }

    @Test func aResourceTooLargeForAnyCallIsRefusedWithItsSize() throws {
        var batches = PulledBatches()
        let huge = resource(1, bytes: 1 << 20)
        #expect {
            try batches.add(huge)
        } throws: { error in
            let oversized = error as? OversizedResource
            return oversized?.href == huge.href && oversized?.bytes == huge.json.serialized().count + 1
        }
        // One larger than the batch limit but under the request limit goes alone.
        let large = resource(2, bytes: 600 << 10)
        #expect(try batches.add(resource(3, bytes: 10)) == nil)
        #expect(try batches.add(large)?.resources.map(\.href) == ["/alice/reminderd/3.ics"])
        #expect(try batches.add(resource(4, bytes: 10))?.resources.map(\.href) == [large.href])
    }
}
