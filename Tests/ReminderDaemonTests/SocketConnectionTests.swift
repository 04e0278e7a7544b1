import Dispatch
import Glibc
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// The shell's system calls on a real socket pair: `read` hands the bytes to the state and tells
/// a shutdown of the client's sending side from a hang-up; `write` writes until the socket is
/// full and says so once.
@Suite struct SocketConnectionTests {
    /// The daemon's end (non-blocking, in a `SocketConnection`) and the client's.
    func pair() throws -> (connection: SocketConnection, client: Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var small: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        return (SocketConnection(id: 1, fd: fds[0]), fds[1])
    }

    func send(_ fd: Int32, _ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
    }

    /// Reads everything the client's end holds now, without waiting.
    func drain(_ fd: Int32) -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return total }
            total += count
        }
    }

    @Test func aReadHandsTheCallToTheStateAndAFullSocketIsWatchedUntilTheReplyIsOut() throws {
        let (connection, client) = try pair()
        defer { close(client) }
        defer { connection.closeDescriptor() }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        #expect(connection.read(into: &buffer) == [])  // nothing there yet (EAGAIN)
        let list = VarlinkCall(method: "io.reminderd.Reminders.List")
        send(client, list.bytes)
        #expect(connection.read(into: &buffer) == [.dispatch(list, slot: 0), .callsDispatched])
        let large = VarlinkReply.success(["text": .string(String(repeating: "x", count: 1 << 20))])
        _ = connection.state.answered(0, with: large, acknowledgesChange: false)
        _ = connection.state.settled(0, .onDisk)
        #expect(connection.state.callsDispatched() == [.inputChanged(by: 0), .write])
        #expect(connection.write() == [.watchWritable])  // the socket took part of it
        #expect(connection.write() == [])  // still full: watched already
        var received = 0
        var actions: [ConnectionState.Action] = []
        for _ in 0..<10_000 where actions.isEmpty {  // bounded: a write that gave up returns nothing
            received += drain(client)
            actions = connection.write()
        }
        #expect(actions == [.largeOutputWritten, .unwatchWritable])
        received += drain(client)
        #expect(received == large.bytes.count)
    }

    @Test func aShutdownOfTheClientsSendingSideIsNotAHangUp() throws {
        // A parked call lives on the engine's queue; the test plays that queue.
        let queue = DispatchQueue(label: "test.parked")
        try queue.sync {
            let (connection, client) = try pair()
            defer { close(client) }
            defer { connection.closeDescriptor() }
            connection.parked.append(ParkedCall(on: queue) { _ in })
            var buffer = [UInt8](repeating: 0, count: 65_536)
            send(client, VarlinkCall(method: "io.reminderd.Reminders.SyncWait").bytes)
            _ = connection.read(into: &buffer)  // parked: its place waits
            shutdown(client, Int32(SHUT_WR))
            #expect(connection.read(into: &buffer) == [.stopReading])  // its parked call is still answered
        }
    }

    @Test func aClientThatHungUpOnAParkedCallIsClosed() throws {
        // A parked call lives on the engine's queue; the test plays that queue.
        let queue = DispatchQueue(label: "test.parked")
        try queue.sync {
            let (connection, client) = try pair()
            defer { connection.closeDescriptor() }
            var dropped = false
            let parked = ParkedCall(on: queue) { _ in }
            parked.dropped = { dropped = true }
            connection.parked.append(parked)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            send(client, VarlinkCall(method: "io.reminderd.Reminders.SyncWait").bytes)
            _ = connection.read(into: &buffer)
            close(client)
            #expect(connection.read(into: &buffer) == [.close(releasedInput: 0)])
            connection.closeDescriptor()
            #expect(dropped)  // its keeper forgets it
        }
    }
}
