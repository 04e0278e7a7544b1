import Logging
import Testing

@testable import ReminderDaemon

@Suite struct DBusNotifierLifecycleTests {
    /// The quit is queued onto the loop, so a stop that comes before the loop runs still ends the
    /// thread (a bare `g_main_loop_quit` before `g_main_loop_run` is lost, and the join would
    /// time out).
    @Test func aStopRightAfterStartQuitsTheLoopAndJoinsItsThread() {
        let notifier = DBusNotifier(logger: Logger(label: "test"))
        notifier.start { _ in }
        #expect(notifier.quitAndJoin())
    }

    @Test func aStopWithoutAStartHasNothingToJoin() {
        #expect(DBusNotifier(logger: Logger(label: "test")).quitAndJoin())
    }
}
