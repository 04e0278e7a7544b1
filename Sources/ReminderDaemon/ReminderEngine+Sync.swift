import ReminderCore
import ReminderJSON
import ReminderProtocol

/// The methods reminderd-sync calls (docs/SYNC.md).
extension ReminderEngine {
    func sync(_ request: ReminderRequest, now: Int64) throws -> [String: JSONValue] {
        // Being built on the sync branches; refused in words until then.
        throw CommandError(
            error: VarlinkError(
                name: ReminderInterface.ErrorName.syncFailed,
                parameters: ["reason": .string("sync is not available in this build")]))
    }
}
