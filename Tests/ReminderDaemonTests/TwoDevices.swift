@testable import ReminderDaemon

/// Two devices, A and B, syncing through one CalDAV task list: the setup of every suite that
/// tests what a change on one device does on the other, made once here so those suites state
/// only what differs (the clock).
struct TwoDevices {
    let server = FakeTaskList()
    let a: EngineHarness
    let b: EngineHarness

    /// Both devices started at `EngineHarness.start`, then their clocks moved to `now` when given
    /// (a date whose month a suite's periods depend on).
    init(now: Int64? = nil) throws {
        a = try EngineHarness()
        b = try EngineHarness()
        if let now { for device in [a, b] { device.clock.set(now) } }
    }

    /// An item added on A by `add`, then synced to B through the server; returns its id.
    func shared(_ add: (EngineHarness) -> String) -> String {
        let id = add(a)
        server.sync(a.engine)
        server.sync(b.engine)
        return id
    }
}

/// A suite whose tests run on a fresh `TwoDevices`, named `server`, `a` and `b` in the tests.
protocol TwoDeviceSuite {
    var devices: TwoDevices { get }
}

extension TwoDeviceSuite {
    var server: FakeTaskList { devices.server }
    var a: EngineHarness { devices.a }
    var b: EngineHarness { devices.b }

    func shared(_ add: (EngineHarness) -> String) -> String { devices.shared(add) }
}
