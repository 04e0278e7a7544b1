import Dispatch
import ReminderPlatform
import Testing

@testable import ReminderDaemon

/// A value bound to a queue: read and changed there; touched anywhere else, the process stops.
@Suite struct QueueBoundTests {
    @Test func readAndChangedOnItsQueue() {
        let queue = DispatchQueue(label: "test.bound")
        let bound = QueueBound([1], queue: queue)
        queue.sync { bound.value.append(2) }
        #expect(queue.sync { bound.value } == [1, 2])
    }

    @Test func touchedOffItsQueueItTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = QueueBound(0, queue: DispatchQueue(label: "test.bound"))
            _ = bound.value
        }
    }
}
