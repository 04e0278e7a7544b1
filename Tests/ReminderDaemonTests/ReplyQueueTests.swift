import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

@Suite struct ReplyQueueTests {
    let ok = VarlinkReply.success(["id": .string("ab12")])
    let status = VarlinkReply.success(["status": .object([:])])
    let refused = VarlinkReply.failure(
        VarlinkError(name: ReminderInterface.ErrorName.noSuchItem, parameters: ["id": .string("zz")]))

    @Test func repliesGoOutInOrderEachWhenItsOwnFlushSettled() {
        var queue = ReplyQueue()
        let first = queue.add(ok, acknowledgesChange: true)
        let second = queue.add(status, acknowledgesChange: false)
        queue.settle(second, .onDisk)
        #expect(queue.takeReady().isEmpty)  // the first still waits
        queue.settle(first, .onDisk)
        #expect(queue.takeReady() == [ok, status])
        #expect(queue.isEmpty)
    }

    @Test func aFailedFlushTurnsAnAcknowledgementIntoNotDurableAndLeavesReadsAndRefusals() {
        var queue = ReplyQueue()
        let change = queue.add(ok, acknowledgesChange: true)
        let read = queue.add(status, acknowledgesChange: false)
        let refusal = queue.add(refused, acknowledgesChange: false)
        let failure = Durability.notConfirmed(reason: "fdatasync of /x-wal failed: Input/output error")
        let converted = [queue.settle(change, failure), queue.settle(read, failure), queue.settle(refusal, failure)]
        #expect(converted == [true, false, false])
        let ready = queue.takeReady()
        #expect(
            ready[0]
                == .failure(
                    VarlinkError(
                        name: ReminderInterface.ErrorName.notDurable,
                        parameters: [
                            "reason": .string(
                                "saved but not confirmed on disk: fdatasync of /x-wal failed: Input/output error")
                        ])))
        #expect(Array(ready.dropFirst()) == [status, refused])
    }

    @Test func numbersStayValidAfterEarlierRepliesWereTaken() {
        var queue = ReplyQueue()
        queue.settle(queue.add(ok, acknowledgesChange: true), .onDisk)
        #expect(queue.takeReady() == [ok])
        let next = queue.add(status, acknowledgesChange: false)
        queue.settle(next, .onDisk)
        #expect(queue.takeReady() == [status])
    }

    @Test func aParkedCallKeepsItsPlaceAndTheRepliesAfterItWaitBehindIt() {
        var queue = ReplyQueue()
        let parked = queue.reserve()
        let later = queue.add(status, acknowledgesChange: false)
        queue.settle(later, .onDisk)
        queue.settle(parked, .onDisk)  // not answered yet: nothing to settle
        #expect(queue.takeReady().isEmpty)
        queue.fill(parked, with: ok)
        queue.settle(parked, .onDisk)
        #expect(queue.takeReady() == [ok, status])
        #expect(queue.isEmpty)
    }
}
