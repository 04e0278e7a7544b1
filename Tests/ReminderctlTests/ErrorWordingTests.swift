import ReminderCore
import ReminderProtocol
import Testing

@testable import reminderctl

/// The daemon's errors as reminderctl says them: in words, never an internal name.
@Suite struct ErrorWordingTests {
    let names = ReminderInterface.ErrorName.self

    @Test func anAmbiguousIdListsItsMatches() {
        let error = VarlinkError(
            name: names.ambiguousId,
            parameters: ["prefix": .string("3"), "matches": .array(["3ztp", "32u9", "3uqn"].map { .string($0) })])
        #expect(
            ErrorWording.message(error) == "\"3\" matches 3 items (3ztp, 32u9, 3uqn); type more characters of the id")
    }

    @Test func noSuchItemAndNothingToUndoAreSentences() {
        #expect(
            ErrorWording.message(VarlinkError(name: names.noSuchItem, parameters: ["id": .string("nope")]))
                == "no item has the id \"nope\"; see the ids with: reminderctl list --all")
        #expect(
            ErrorWording.message(VarlinkError(name: names.nothingToUndo, parameters: ["id": .string("k4s8")]))
                == "nothing to undo for k4s8: it has no Done left to undo")
    }

    @Test func aBadConfigNamesItsPathOnce() {
        let path = "/home/u/.config/reminderd/config.json"
        let error = VarlinkError(
            name: names.invalidConfig,
            parameters: ["field": .string(path), "reason": .string("\(path): x: unknown field")])
        #expect(ErrorWording.message(error) == "\(path): x: unknown field (the config in use is kept)")
        let zone = VarlinkError(
            name: names.invalidConfig,
            parameters: ["field": .string("timeZone"), "reason": .string("no zone \"Mars\"")])
        #expect(ErrorWording.message(zone) == "timeZone: no zone \"Mars\" (the config in use is kept)")
    }

    @Test func noMessageShowsAnErrorName() {
        let errors = [
            VarlinkError(name: names.internal), VarlinkError(name: names.notDurable),
            VarlinkError(name: "io.reminderd.Reminders.SomethingNew", parameters: ["id": .string("ab")]),
            VarlinkError(name: ReminderInterface.Service.methodNotFound, parameters: ["method": .string("X.Y")]),
            VarlinkError(
                name: names.notApplicable, parameters: ["id": .string("ab"), "reason": .string("nothing is due")]),
        ]
        for error in errors {
            let message = ErrorWording.message(error)
            for name in ["Internal", "NotDurable", "SomethingNew", "MethodNotFound", "NotApplicable"] {
                #expect(!message.contains(name), "\(message)")
            }
        }
        #expect(ErrorWording.message(errors[2]) == "the daemon answered: something new (id ab)")
    }
}
