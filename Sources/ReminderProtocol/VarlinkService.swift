import ReminderCore
import ReminderJSON

/// What every call meets first: `org.varlink.service` (GetInfo, GetInterfaceDescription) is
/// answered here, a call of another interface is refused, and one of `io.reminderd.Reminders`
/// goes to `handler` by method. Pure: the socket server only frames and delivers, and this is
/// tested without a socket.
public struct VarlinkService: Sendable {
    /// The daemon's version, for GetInfo.
    public let version: String

    public init(version: String) { self.version = version }

    /// The reply to `call`; nil when `handler` gave none: it keeps the call to answer later
    /// (the daemon's parked calls, `SyncWait` and `SyncNow`).
    public func reply(
        to call: VarlinkCall, handler: (ReminderMethod, [String: JSONValue]) -> VarlinkReply?
    ) -> VarlinkReply? {
        let service = ReminderInterface.Service.self
        switch call.method {
        case "\(service.name).GetInfo":
            return .success([
                "vendor": .string("reminderd"), "product": .string("reminderd"),
                "version": .string(version),
                "url": .string("https://github.com/reminderd/reminderd"),
                "interfaces": .array([.string(service.name), .string(ReminderInterface.name)]),
            ])
        case "\(service.name).GetInterfaceDescription":
            switch call.parameters["interface"] {
            case .string(service.name)?: return .success(["description": .string(service.description)])
            case .string(ReminderInterface.name)?:
                return .success(["description": .string(ReminderInterface.description)])
            case .string(let other)?:
                return .failure(
                    VarlinkError(name: service.interfaceNotFound, parameters: ["interface": .string(other)]))
            default:
                return .failure(
                    VarlinkError(name: service.invalidParameter, parameters: ["parameter": .string("interface")]))
            }
        default:
            let interface = call.method.split(separator: ".").dropLast().joined(separator: ".")
            guard interface == ReminderInterface.name else {
                return .failure(
                    VarlinkError(name: service.interfaceNotFound, parameters: ["interface": .string(interface)]))
            }
            guard let method = ReminderMethod(qualifiedName: call.method) else {
                return .failure(
                    VarlinkError(name: service.methodNotFound, parameters: ["method": .string(call.method)]))
            }
            return handler(method, call.parameters)
        }
    }
}
