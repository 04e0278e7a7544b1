internal import CNotify

/// The notification server's signals, taken only from the server and only as documented. Any
/// program on the session bus can send a signal naming the server's interface and object, and
/// any arguments: one that is not from the unique name owning `org.freedesktop.Notifications`
/// now (tracked by the name watch, so a restarted server is followed), or whose arguments are
/// not of the signal's documented type, is ignored — never read, so it can neither stop
/// reminderd (reading a child that is not there aborts in GLib) nor press a button. The first
/// one ignored is logged with what it was; the rest are counted and their number logged when
/// the notifier stops, so a program that floods the bus does not flood the log. On the GLib thread.
extension DBusNotifier {
    /// The documented types of the signals acted on.
    enum ServerSignal: String {
        /// `ActionInvoked(u id, s action_key)`.
        case actionInvoked = "(us)"
        /// `NotificationClosed(u id, u reason)`.
        case notificationClosed = "(uu)"
        /// `org.freedesktop.DBus.Properties.PropertiesChanged(s interface, a{sv} changed, as invalidated)`.
        case propertiesChanged = "(sa{sv}as)"

        var member: String {
            switch self {
            case .actionInvoked: "ActionInvoked"
            case .notificationClosed: "NotificationClosed"
            case .propertiesChanged: "PropertiesChanged"
            }
        }
    }

    /// `parameters` when the signal came from the server and is of `kind`'s type; nil (counted,
    /// the first logged) otherwise.
    func fromServer(
        _ kind: ServerSignal, sender: UnsafePointer<gchar>?, _ parameters: OpaquePointer?
    ) -> OpaquePointer? {
        let from = sender.map { String(cString: $0) }
        let type = parameters.map { String(cString: g_variant_get_type_string($0)) } ?? "()"
        let fault: String
        if from == nil || from != serverOwner {
            fault = "not from the notification server (\(serverOwner ?? "none on the bus"))"
        } else if let parameters, g_variant_is_of_type(parameters, g_variant_type_checked_(kind.rawValue)) != 0 {
            return parameters
        } else {
            fault = "not of its documented type \(kind.rawValue)"
        }
        ignoredSignals += 1
        if ignoredSignals == 1 {
            logger.warning(
                "ignored a \(kind.member) signal of type \(type) from \(from ?? "an unnamed sender"): \(fault); further ignored signals are only counted"
            )
        }
        return nil
    }

    /// Logs how many signals were ignored after the first (which was logged when it came).
    func reportIgnoredSignals() {
        guard ignoredSignals > 1 else { return }
        logger.warning("ignored \(ignoredSignals) signals in all that were not the notification server's, or not as documented")
    }

    func actionInvoked(sender: UnsafePointer<gchar>?, _ parameters: OpaquePointer?) {
        guard let parameters = fromServer(.actionInvoked, sender: sender, parameters) else { return }
        let id = DBusNotifier.child(parameters, 0, g_variant_get_uint32)
        guard shown.contains(id) else { return }
        events?(.actionInvoked(id: id, action: DBusNotifier.child(parameters, 1, DBusNotifier.string)))
    }

    func notificationClosed(sender: UnsafePointer<gchar>?, _ parameters: OpaquePointer?) {
        guard let parameters = fromServer(.notificationClosed, sender: sender, parameters) else { return }
        let id = DBusNotifier.child(parameters, 0, g_variant_get_uint32)
        guard shown.remove(id) != nil else { return }
        let reason = DBusNotifier.child(parameters, 1, g_variant_get_uint32)
        events?(.closed(id: id, reason: Int32(truncatingIfNeeded: reason)))
    }
}
