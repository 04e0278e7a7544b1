internal import CNotify

extension NotifierError {
    /// A failed call in the engine's terms — no server; no answer (the server may still act on
    /// it); or a refusal — told by the error's domain and code, never by its message, which GLib
    /// translates into the user's language. An error the bus or the server sent arrives in
    /// `G_DBUS_ERROR` when GLib knows its D-Bus name (it registers all of the bus's own, such as
    /// `org.freedesktop.DBus.Error.ServiceUnknown` or `NoReply`); any other is a refusal. Frees
    /// `error`; its message, which then starts with the D-Bus name, becomes the reason.
    static func taking(_ error: UnsafeMutablePointer<GError>?) -> NotifierError {
        guard let error else { return .refused(reason: "unknown error") }
        let kind = kind(of: error)
        let message = GLibError.take(error)
        switch kind {
        case .noServer: return .noServer(reason: message)
        case .timedOut: return .timedOut(reason: message)
        case .refused: return .refused(reason: message)
        }
    }

    private enum Kind { case noServer, timedOut, refused }

    private static func kind(of error: UnsafeMutablePointer<GError>) -> Kind {
        let code = UInt32(bitPattern: error.pointee.code)
        if error.pointee.domain == g_dbus_error_quark() {
            switch GDBusError(rawValue: code) {
            case G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_DISCONNECTED:
                return .noServer
            case G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT:
                return .timedOut
            default:
                return .refused
            }
        }
        if error.pointee.domain == g_io_error_quark() {
            switch GIOErrorEnum(rawValue: code) {
            case G_IO_ERROR_TIMED_OUT:
                return .timedOut
            case G_IO_ERROR_CLOSED, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_NOT_CONNECTED:
                return .noServer
            default:
                return .refused
            }
        }
        return .refused
    }
}

/// GLib's errors as Swift strings.
enum GLibError {
    /// Frees a GError, returning its message.
    @discardableResult
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
