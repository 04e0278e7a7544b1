import ReminderJSON
import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

/// A connection's varlink protocol (`ConnectionState`) driven with byte arrays through an
/// in-memory shell (`EmbeddedConnection`): framing, reply order, durability, back-pressure and
/// the ways a connection ends.
@Suite struct ConnectionStateTests {
    @Test func aCallSplitOverSeveralReadsIsDispatchedOnceItsNULArrives() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        let bytes = call("List")
        connection.receive(Array(bytes[..<5]))
        connection.receive(Array(bytes[5..<(bytes.count - 1)]))
        #expect(connection.dispatched.isEmpty)
        #expect(connection.bufferedInput == bytes.count - 1)  // the server's budget counts it
        #expect(!connection.state.isIdle)
        connection.receive([0])
        #expect(connection.dispatched.map(\.method) == ["io.reminderd.Reminders.List"])
        #expect(try connection.replies() == [reply("List")])
        #expect(connection.bufferedInput == 0)
        #expect(connection.state.isIdle)
    }

    @Test func severalCallsInOneReadAreAnsweredInOrderInOneWrite() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("List") + call("Get") + call("Upcoming") + Array(call("Summary").prefix(3)))
        #expect(try connection.replies() == [reply("List"), reply("Get"), reply("Upcoming")])
        #expect(connection.writes == 1)
        #expect(connection.bufferedInput == 3)  // the start of the fourth call waits for its rest
    }

    @Test func aReplyWaitingForItsFlushHoldsBackTheRepliesAfterIt() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add") + call("List"))
        // The List is settled at once, the Add only by the flush: nothing may overtake it.
        #expect(try connection.replies().isEmpty)
        connection.flush()
        #expect(try connection.replies() == [reply("Add"), reply("List")])
    }

    @Test func aParkedCallKeepsItsPlaceAndItsAnswerGoesOutBeforeTheLaterReplies() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("SyncWait") + call("List"))
        #expect(try connection.replies().isEmpty)
        let answer = VarlinkReply.success(["reason": .string("changed")])
        connection.answerParked(try #require(connection.parkedSlots.first), answer)
        #expect(try connection.replies() == [answer, reply("List")])
        #expect(connection.state.isIdle)
    }

    @Test func aOnewayCallGetsNoReplyAndHoldsNothingBack() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add", oneway: true) + call("List"))
        #expect(connection.dispatched.count == 2)
        connection.flush()  // the List's reply shows the oneway Add's change: it waits for its flush
        #expect(try connection.replies() == [reply("List")])
    }

    @Test func aCallAskingForMoreIsAnsweredOnceAsTheDaemonStreamsNothing() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(frame(#"{"method": "io.reminderd.Reminders.List", "more": true}"#) + call("Get"))
        #expect(try connection.replies() == [reply("List"), reply("Get")])
        #expect(connection.reading)
    }

    @Test func aCallTheServiceNeitherAnswersNorParksHoldsNothingBack() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Notify") + call("List"))
        #expect(try connection.replies() == [reply("List")])
    }

    @Test func aFailedFlushTurnsTheAcknowledgementIntoNotDurableAndSaysSo() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add"))
        connection.flush(.notConfirmed(reason: "fdatasync of /x-wal failed: Input/output error"))
        let replies = try connection.replies()
        #expect(replies.count == 1)
        guard case .failure(let error)? = replies.first else {
            Issue.record("expected NotDurable, got \(replies)")
            return
        }
        #expect(error.name == ReminderInterface.ErrorName.notDurable)
        #expect(connection.logged.count == 1)
        #expect(connection.logged.first?.contains("not confirmed on disk") == true)
    }

    @Test func aMalformedMessageIsRefusedAfterTheCallsBeforeItAndEndsTheConnection() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("List") + frame("not json") + call("Get"))
        #expect(connection.dispatched.map(\.method) == ["io.reminderd.Reminders.List"])
        let replies = try connection.replies()
        #expect(replies.first == reply("List"))
        guard replies.count == 2, case .failure(let error) = replies[1] else {
            Issue.record("expected List's reply and a refusal, got \(replies)")
            return
        }
        #expect(error.name == ReminderInterface.Service.invalidParameter)
        #expect(error.parameters["parameter"] == .string("message"))
        #expect(!connection.reading)
        #expect(connection.closed)  // its replies are out
    }

    @Test func aMalformedMessageWithAReplyStillWaitingClosesOnceItIsOut() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add") + frame("{\"parameters\": {}}"))
        #expect(!connection.reading)
        #expect(!connection.closed)
        connection.receive(call("List"))  // read no more
        #expect(connection.dispatched.count == 1)
        connection.flush()
        #expect(try connection.replies().count == 2)
        #expect(connection.closed)
    }

    @Test func anOversizedRequestIsNamedAndTheRestOfTheInputDropped() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        let limit = VarlinkFraming.maximumMessageSize
        connection.receive(call("List") + [UInt8](repeating: UInt8(ascii: "x"), count: limit + 1))
        let replies = try connection.replies()
        guard replies.count == 2, case .failure(let error) = replies[1] else {
            Issue.record("expected List's reply and RequestTooLarge, got \(replies)")
            return
        }
        #expect(replies[0] == reply("List"))
        #expect(error.name == ReminderInterface.ErrorName.requestTooLarge)
        #expect(error.parameters["limit"] == .integer(Int64(limit)))
        #expect(connection.logged == ["refused a request larger than \(limit) bytes"])
        #expect(connection.bufferedInput == 0)  // nothing of it is held
        #expect(connection.shutDown)  // the client sees the end of the replies
        #expect(!connection.closed)
        // What follows is read and dropped, calls too, until the client hangs up.
        connection.receive(call("Get"))
        #expect(connection.dispatched.count == 1)
        #expect(try connection.replies().isEmpty)
        connection.receiveEnd()
        #expect(connection.closed)
    }

    @Test func aClientThatKeepsSendingAfterAnOversizedRequestIsDropped() {
        let connection = EmbeddedConnection(service: scriptedService)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: VarlinkFraming.maximumMessageSize + 1)
        connection.receive(chunk)
        for _ in 0..<15 { connection.receive(chunk) }
        #expect(!connection.closed)  // 15 MiB dropped so far
        connection.receive(chunk)
        #expect(connection.closed)
    }

    @Test func aClientDoneSendingStillGetsItsRepliesThenTheConnectionCloses() throws {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add"))
        connection.receiveEnd()  // shutdown(SHUT_WR), as socat does
        #expect(!connection.reading)
        #expect(!connection.closed)
        connection.flush()
        #expect(try connection.replies() == [reply("Add")])
        #expect(connection.closed)
    }

    @Test func aClientDoneSendingWithNothingOwedIsClosedAtOnce() {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("List"))
        connection.receiveEnd()
        #expect(connection.closed)
    }

    @Test func aClientThatHungUpOnAParkedCallIsClosedAtOnce() {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("SyncWait"))
        connection.receiveEnd(hungUp: true)
        #expect(connection.closed)
    }

    @Test func aFullSocketIsWatchedOnceAndTheRestGoesWhenThereIsRoom() throws {
        let connection = EmbeddedConnection(room: 10, service: scriptedService)
        connection.receive(call("List") + call("Get"))
        #expect(connection.written.count == 10)
        #expect(connection.watchingWritable)
        connection.receive(call("Upcoming"))  // more replies while it is full: still one watch
        #expect(connection.watchWritableActions == 1)
        #expect(!connection.state.isIdle)
        connection.makeRoom(1_000)
        #expect(try connection.replies() == [reply("List"), reply("Get"), reply("Upcoming")])
        #expect(!connection.watchingWritable)
        #expect(connection.state.isIdle)
    }

    @Test func aClientThatDoesNotReadItsRepliesIsDroppedPastTheOutputLimit() {
        let large = VarlinkReply.success(["text": .string(String(repeating: "x", count: 3 << 20))])
        let connection = EmbeddedConnection(room: 0) { _ in .reply(large, changes: false) }
        connection.receive(call("List") + call("List") + call("List"))
        #expect(!connection.closed)  // 9 MiB unsent, but each reply was added with at most 6 waiting
        connection.receive(call("List"))
        #expect(connection.closed)
        #expect(connection.logged == ["dropping a client that does not read its replies"])
    }

    @Test func aLargeReplyWrittenLetsMallocGivePagesBack() throws {
        let large = VarlinkReply.success(["text": .string(String(repeating: "x", count: ConnectionState.largeOutput))])
        let connection = EmbeddedConnection {
            $0.method.hasSuffix(".List") ? .reply(large, changes: false) : .reply(reply("Get"), changes: false)
        }
        connection.receive(call("List"))
        #expect(connection.largeOutputs == 1)
        connection.receive(call("Get"))
        #expect(connection.largeOutputs == 1)
        #expect(try connection.replies() == [large, reply("Get")])
    }

    @Test func aClosedConnectionLetsGoOfItsInputAndWritesNothingMore() {
        let connection = EmbeddedConnection(service: scriptedService)
        connection.receive(call("Add") + Array(call("List").prefix(7)))
        connection.close()
        #expect(connection.closed)
        #expect(connection.releasedInput == 7)
        #expect(!connection.state.wantsInput)
        #expect(connection.state.unsent.isEmpty)
    }

    /// The actions themselves, for one call, without a shell.
    @Test func oneCallsActionsFromItsBytesToItsWriteAndAfterTheClose() {
        var state = ConnectionState()
        let add = VarlinkCall(method: "io.reminderd.Reminders.Add")
        #expect(state.received(add.bytes[...]) == [.dispatch(add, slot: 0), .callsDispatched])
        #expect(state.answered(0, with: reply("Add"), acknowledgesChange: true) == [.awaitDurability(slot: 0)])
        #expect(state.callsDispatched() == [.inputChanged(by: 0)])  // waits for its flush
        #expect(state.settled(0, .onDisk) == [.write])
        #expect(Array(state.unsent) == reply("Add").bytes)
        #expect(state.sent(3) == [])
        #expect(state.sendBlocked() == [.watchWritable])
        #expect(state.sendBlocked() == [])
        #expect(state.writable() == [.write])
        #expect(state.sent(state.unsent.count) == [.unwatchWritable])
        #expect(state.isIdle)
        #expect(state.close() == [.close(releasedInput: 0)])
        #expect(state.close() == [])
        #expect(state.received(add.bytes[...]) == [])
        #expect(state.settled(0, .onDisk) == [])
    }
}
