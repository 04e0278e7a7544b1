import CNotify
import Testing

@testable import ReminderDaemon

/// GErrors built as GDBus builds them, with messages in other languages: the kind comes from
/// the domain and code, whatever the words.
@Suite struct NotifierErrorGLibTests {
    /// An error the bus or a server sent, named `name`, as `g_dbus_connection_call_finish` gives it.
    func remote(_ name: String, _ message: String) -> UnsafeMutablePointer<GError>? {
        g_dbus_error_new_for_dbus_error(name, message)
    }

    func local(_ domain: GQuark, _ code: UInt32, _ message: String) -> UnsafeMutablePointer<GError>? {
        g_error_new_literal(domain, gint(bitPattern: code), message)
    }

    @Test func noOwnerOfTheNameIsNoServer() {
        for name in ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"] {
            guard case .noServer(let reason) = NotifierError.taking(remote(name, "Der Name ist nicht aktivierbar"))
            else {
                Issue.record("\(name) is not no-server")
                continue
            }
            #expect(reason.contains(name) && reason.contains("Der Name ist nicht aktivierbar"))
        }
    }

    @Test func noAnswerIsATimeoutWhateverTheLanguage() {
        for name in [
            "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
            "org.freedesktop.DBus.Error.TimedOut",
        ] {
            #expect(
                NotifierError.taking(remote(name, "Keine Antwort"))
                    == .timedOut(reason: "GDBus.Error:\(name): Keine Antwort"))
        }
        let local = local(g_io_error_quark(), G_IO_ERROR_TIMED_OUT.rawValue, "Zeitüberschreitung wurde erreicht")
        #expect(NotifierError.taking(local) == .timedOut(reason: "Zeitüberschreitung wurde erreicht"))
    }

    @Test func aClosedConnectionIsNoServer() {
        for code in [G_IO_ERROR_CLOSED, G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_NOT_CONNECTED]
        {
            #expect(
                NotifierError.taking(local(g_io_error_quark(), code.rawValue, "Verbindung ist geschlossen"))
                    == .noServer(reason: "Verbindung ist geschlossen"))
        }
        #expect(
            NotifierError.taking(local(g_dbus_error_quark(), G_DBUS_ERROR_DISCONNECTED.rawValue, "getrennt"))
                == .noServer(reason: "getrennt"))
    }

    @Test func anythingElseIsARefusal() {
        let custom = NotifierError.taking(remote("org.example.Notifications.Error.TooMany", "too many"))
        #expect(custom == .refused(reason: "GDBus.Error:org.example.Notifications.Error.TooMany: too many"))
        let unknownMethod = remote("org.freedesktop.DBus.Error.UnknownMethod", "Methode unbekannt")
        #expect(
            NotifierError.taking(unknownMethod)
                == .refused(reason: "GDBus.Error:org.freedesktop.DBus.Error.UnknownMethod: Methode unbekannt"))
        #expect(
            NotifierError.taking(local(g_io_error_quark(), G_IO_ERROR_CANCELLED.rawValue, "abgebrochen"))
                == .refused(reason: "abgebrochen"))
        #expect(NotifierError.taking(nil) == .refused(reason: "unknown error"))
    }
}
