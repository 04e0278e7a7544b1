internal import CSecret

/// The password from the Secret Service (GNOME Keyring, KeePassXC, KWallet's bridge) through
/// libsecret, as Evolution keeps its CalDAV passwords. The entry is found by two attributes,
/// so it is stored with
/// `secret-tool store --label='reminderd sync' service reminderd username NAME`, or by
/// `reminderctl sync setup`.
public enum SecretService {
    static let label = "reminderd sync"

    /// Stores `password` for `username` where `password(username:)` finds it, replacing any
    /// earlier entry; the error says when no Secret Service runs and what to use instead.
    public static func store(username: String, password: String) throws(PasswordError) {
        let (stored, failure) = calling { reminderd_secret_store("reminderd", username, label, password, $0) }
        if let message = failure {
            throw PasswordError(
                description: "the password could not be stored in the Secret Service (\(message)); is a keyring "
                    + "(GNOME Keyring, KeePassXC, KWallet) running? Or keep it in a file: --password-file PATH")
        }
        guard stored != 0 else {
            throw PasswordError(description: "the Secret Service did not store the password; use --password-file PATH")
        }
    }

    /// The entry stored for `username`, nil when there is none: what `reminderctl sync setup`
    /// puts back when the account it stored a password for is then refused. It also proves,
    /// before anything is done on the server, that a Secret Service answers.
    public static func entry(username: String) throws(PasswordError) -> String? {
        let (secret, failure) = calling { reminderd_secret_lookup("reminderd", username, $0) }
        if let message = failure {
            throw PasswordError(
                description: "the Secret Service could not be asked (\(message)); is a keyring "
                    + "(GNOME Keyring, KeePassXC, KWallet) running? Or keep it in a file: --password-file PATH")
        }
        guard let secret else { return nil }
        defer { secret_password_free(secret) }
        return String(cString: secret)
    }

    /// Removes the entry for `username` (nothing to remove is no error).
    public static func remove(username: String) throws(PasswordError) {
        let (_, failure) = calling { reminderd_secret_clear("reminderd", username, $0) }
        if let message = failure {
            throw PasswordError(description: "the Secret Service did not remove the password (\(message))")
        }
    }

    static func password(username: String) throws(PasswordError) -> String {
        let (secret, failure) = calling { reminderd_secret_lookup("reminderd", username, $0) }
        if let message = failure {
            throw PasswordError(
                description: "the Secret Service could not be asked (\(message)); "
                    + "set sync.passwordCommand or sync.passwordFile instead")
        }
        guard let secret else {
            throw PasswordError(
                description: "the Secret Service has no password for service reminderd, username \(username); "
                    + "store it with: secret-tool store --label='reminderd sync' service reminderd username \(username)"
            )
        }
        defer { secret_password_free(secret) }
        let password = String(cString: secret)
        guard !password.isEmpty else {
            throw PasswordError(description: "the Secret Service's password for \(username) is empty")
        }
        return password
    }

    /// Runs one libsecret call on the session bus: its result, and its GError's message (the error
    /// freed here) when it failed.
    private static func calling<Result>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result)
        -> (Result, String?)
    {
        var error: UnsafeMutablePointer<GError>? = nil
        keepRunningWhenTheBusCloses()
        let result = call(&error)
        guard let error else { return (result, nil) }
        defer { g_error_free(error) }
        return (result, String(cString: error.pointee.message))
    }

    /// GLib's shared session-bus connection, the one libsecret uses, raises SIGTERM in the
    /// process when the bus goes away; a sync process outliving a session restart should just
    /// report the next lookup's error instead.
    private static func keepRunningWhenTheBusCloses() {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        g_dbus_connection_set_exit_on_close(bus, 0)
        g_object_unref(UnsafeMutableRawPointer(bus))
    }
}
