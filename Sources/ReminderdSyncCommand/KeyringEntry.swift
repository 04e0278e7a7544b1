import CalDAV
import ReminderCore
import ReminderPlatform

/// The password `reminderd-sync setup` (`reminderctl sync setup`) keeps in the Secret Service, stored before the server is
/// asked anything (a keyring that fails then leaves no task list made for nothing), and taken back
/// when a later step fails, so that a refused setup changes nothing: the entry there before is put
/// back, or the new one removed when there was none.
struct KeyringEntry {
    let username: String
    /// What the entry held before (nil: there was none).
    let previous: String?

    /// Asks the Secret Service for the current entry, which proves one answers, then stores
    /// `password`; a failure of either is a refusal saying nothing was done.
    init(storing password: String, for settings: SyncSettings) throws {
        username = settings.username
        do {
            previous = try SecretService.entry(username: username)
            try SecretService.store(username: username, password: password)
        } catch {
            throw Refusal(
                message: "\(error.description); nothing was created on the server and the config was not changed")
        }
    }

    /// Puts the entry back as it was; the words to add to the refusal: empty when that worked,
    /// else what the keyring holds now and how to fix it.
    func takeBack() -> String {
        do {
            if let previous {
                try SecretService.store(username: username, password: previous)
            } else {
                try SecretService.remove(username: username)
            }
            return ""
        } catch {
            let instead = previous == nil ? "" : " in place of the earlier one"
            return "; the password given was left in the Secret Service\(instead) (\(error.description)); "
                + "run reminderctl sync setup again, or remove it: secret-tool clear service reminderd username \(username)"
        }
    }
}
