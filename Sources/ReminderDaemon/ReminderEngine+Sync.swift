import ReminderCore
import ReminderJSON
import ReminderProtocol

/// The methods reminderd-sync calls (docs/SYNC.md).
extension ReminderEngine {
    func sync(_ request: ReminderRequest, now: Int64) throws -> [String: JSONValue] {
        // A report is taken (it answers `SyncNow`: `syncHeard`); storing it is the sync store's,
        // being built on the sync branches, like the rest, refused in words until then.
        if case .syncReport = request { return [:] }
        throw CommandError(
            error: VarlinkError(
                name: ReminderInterface.ErrorName.syncFailed,
                parameters: ["reason": .string("sync is not available in this build")]))
    }
}
