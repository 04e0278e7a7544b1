import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@Suite struct VarlinkServiceTests {
    let service = VarlinkService(version: "9.8.7")

    /// The reply to `call`, and what reached the handler.
    func answer(_ method: String, _ parameters: [String: JSONValue] = [:]) -> (VarlinkReply, [ReminderMethod]) {
        var handled: [ReminderMethod] = []
        let reply = service.reply(to: VarlinkCall(method: method, parameters: parameters)) { method, parameters in
            handled.append(method)
            return .success(["echo": .object(parameters)])
        }
        // The handler always answers, so the service does.
        return (reply!, handled)
    }

    @Test func getInfoNamesTheVersionAndBothInterfaces() {
        let (reply, handled) = answer("org.varlink.service.GetInfo")
        guard case .success(let info) = reply else { return #expect(Bool(false), "\(reply)") }
        #expect(info["version"] == .string("9.8.7"))
        #expect(info["interfaces"] == .array([.string("org.varlink.service"), .string("io.reminderd.Reminders")]))
        #expect(handled.isEmpty)
    }

    @Test func getInterfaceDescriptionServesBothDescriptionsAndRefusesOthers() {
        #expect(
            answer("org.varlink.service.GetInterfaceDescription", ["interface": .string("io.reminderd.Reminders")]).0
                == .success(["description": .string(ReminderInterface.description)]))
        #expect(
            answer("org.varlink.service.GetInterfaceDescription", ["interface": .string("org.varlink.service")]).0
                == .success(["description": .string(ReminderInterface.Service.description)]))
        #expect(
            answer("org.varlink.service.GetInterfaceDescription", ["interface": .string("com.example.Other")]).0
                == .failure(
                    VarlinkError(
                        name: "org.varlink.service.InterfaceNotFound",
                        parameters: ["interface": .string("com.example.Other")])))
        #expect(
            answer("org.varlink.service.GetInterfaceDescription").0
                == .failure(
                    VarlinkError(
                        name: "org.varlink.service.InvalidParameter", parameters: ["parameter": .string("interface")])))
    }

    @Test func aMethodOfTheRemindersInterfaceGoesToTheHandlerWithItsParameters() {
        let (reply, handled) = answer("io.reminderd.Reminders.Get", ["id": .string("ab")])
        #expect(handled == [.get])
        #expect(reply == .success(["echo": .object(["id": .string("ab")])]))
    }

    @Test func unknownInterfacesAndMethodsAreRefusedWithoutTheHandler() {
        let (otherInterface, none) = answer("com.example.Other.Get")
        #expect(
            otherInterface
                == .failure(
                    VarlinkError(
                        name: "org.varlink.service.InterfaceNotFound",
                        parameters: ["interface": .string("com.example.Other")])))
        let (unknownMethod, stillNone) = answer("io.reminderd.Reminders.Nope")
        #expect(
            unknownMethod
                == .failure(
                    VarlinkError(
                        name: "org.varlink.service.MethodNotFound",
                        parameters: ["method": .string("io.reminderd.Reminders.Nope")])))
        #expect(none.isEmpty && stillNone.isEmpty)
    }
}
