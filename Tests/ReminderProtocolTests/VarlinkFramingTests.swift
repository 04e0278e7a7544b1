import ReminderCore
import ReminderProtocol
import Testing

@Suite struct VarlinkFramingTests {
    @Test func messagesSplitAtNULBytesAcrossReads() throws {
        var framing = VarlinkFraming()
        framing.append(Array(#"{"method":"a"}"#.utf8) + [0] + Array(#"{"met"#.utf8))
        #expect(try framing.nextMessage() == Array(#"{"method":"a"}"#.utf8))
        #expect(try framing.nextMessage() == nil)
        framing.append(Array(#"hod":"b"}"#.utf8) + [0])
        #expect(try framing.nextMessage() == Array(#"{"method":"b"}"#.utf8))
        #expect(framing.pendingByteCount == 0)
    }

    @Test func anUnterminatedMessageOverOneMebibyteIsRefused() {
        var framing = VarlinkFraming()
        framing.append([UInt8](repeating: 0x20, count: VarlinkFraming.maximumMessageSize + 1))
        #expect(throws: ReminderProtocolError.messageTooLarge(limit: VarlinkFraming.maximumMessageSize)) {
            try framing.nextMessage()
        }
    }

    @Test func callsAndRepliesRoundTrip() throws {
        let call = VarlinkCall(method: "io.reminderd.Reminders.Get", parameters: ["id": .string("ab")])
        #expect(try VarlinkCall(bytes: Array(call.bytes.dropLast())) == call)
        let reply = VarlinkReply.failure(
            VarlinkError(name: ReminderInterface.ErrorName.noSuchItem, parameters: ["id": .string("zz")]))
        #expect(try VarlinkReply(bytes: Array(reply.bytes.dropLast())) == reply)
        #expect(reply.bytes.last == 0)
    }

    /// A connection serializes each reply straight after those still in its write buffer.
    @Test func repliesAppendedToABufferFollowWhatIsThere() throws {
        let first = VarlinkReply.success(["items": .array([.object(["title": .string("Rent"), "id": .string("a")])])])
        let second = VarlinkReply.failure(VarlinkError(name: "io.reminderd.Reminders.NoSuchItem"))
        var output = Array("unsent".utf8)
        first.append(to: &output)
        second.append(to: &output)
        #expect(output == Array("unsent".utf8) + first.bytes + second.bytes)
        #expect(
            String(decoding: first.bytes, as: UTF8.self)
                == #"{"parameters":{"items":[{"id":"a","title":"Rent"}]}}"# + "\0")
        var framing = VarlinkFraming()
        framing.append(output.dropFirst(6))
        let firstMessage = try framing.nextMessage()
        let secondMessage = try framing.nextMessage()
        #expect(try VarlinkReply(bytes: try #require(firstMessage)) == first)
        #expect(try VarlinkReply(bytes: try #require(secondMessage)) == second)
    }

    @Test func malformedCallsAreRefusedWithTheReason() {
        #expect(throws: ReminderProtocolError.malformedMessage(reason: #"expected an object with a "method" string"#)) {
            try VarlinkCall(bytes: Array(#"{"parameters":{}}"#.utf8))
        }
        #expect(throws: ReminderProtocolError.self) { try VarlinkCall(bytes: Array("not json".utf8)) }
        #expect(throws: ReminderProtocolError.malformedMessage(reason: #""parameters" must be an object"#)) {
            try VarlinkCall(bytes: Array(#"{"method":"x","parameters":[1]}"#.utf8))
        }
    }

    @Test func errorsReadAsOneLine() {
        let invalid = VarlinkError(
            name: ReminderInterface.ErrorName.invalidItem,
            parameters: ["field": .string("due"), "reason": .string("bad date")])
        #expect(invalid.description == "due: bad date")
        let missing = VarlinkError(name: ReminderInterface.ErrorName.noSuchItem, parameters: ["id": .string("zz")])
        #expect(missing.description == "NoSuchItem: zz")
    }

    @Test func theInterfaceDescriptionNamesEveryMethod() {
        for method in ReminderMethod.allCases.map(\.rawValue) {
            #expect(ReminderInterface.description.contains("method \(method)("), "\(method)")
        }
    }
}

@Suite struct VarlinkFramingLimitTests {
    @Test func aClientFramingTakesRepliesOverOneMebibyte() throws {
        var framing = VarlinkFraming(limit: VarlinkFraming.maximumReplySize)
        let reply = [UInt8](repeating: 0x20, count: 3 << 20)
        framing.append(reply + [0])
        #expect(try framing.nextMessage() == reply)
        #expect(framing.pendingByteCount == 0)
    }

    @Test func aCallOverTheLimitIsRefusedBeforeItIsSentWithSizeAndLimit() {
        #expect(
            ReminderProtocolError.requestTooLarge(size: 2_000_000, limit: 1 << 20).description
                == "request of 2000000 bytes is larger than the daemon's limit of 1048576 bytes (1 MiB)")
    }
}
