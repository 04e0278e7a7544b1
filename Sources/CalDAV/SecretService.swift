internal import CSecret

/// The password from the Secret Service (GNOME Keyring, KeePassXC, KWallet's bridge) through
/// libsecret, as Evolution keeps its CalDAV passwords. The entry is found by two attributes,
/// so it is stored with
/// `secret-tool store --label='reminderd sync' service reminderd username NAME`.
enum SecretService {
    static func password(username: String) throws(PasswordError) -> String {
        var error: UnsafeMutablePointer<GError>? = nil
        keepRunningWhenTheBusCloses()
        let secret = reminderd_secret_lookup("reminderd", username, &error)
        if let error {
            let message = String(cString: error.pointee.message)
            g_error_free(error)
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

    /// GLib's shared session-bus connection, the one libsecret uses, raises SIGTERM in the
    /// process when the bus goes away; a sync process outliving a session restart should just
    /// report the next lookup's error instead.
    private static func keepRunningWhenTheBusCloses() {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        g_dbus_connection_set_exit_on_close(bus, 0)
        g_object_unref(UnsafeMutableRawPointer(bus))
    }
}
