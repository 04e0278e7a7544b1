import ReminderCore
import ReminderJSON
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
                == "no item has the id or title \"nope\"; see them with: reminderctl list --all")
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

/// Issue 28: a name that fits several items, a duplicate, a card typo and a mistyped command,
/// each said with what to do.
@Suite struct NameErrorWordingTests {
    let names = ReminderInterface.ErrorName.self
    let candidates: JSONValue = .array([
        .object([
            "id": .string("k4s8"), "title": .string("Uber Cash"), "kind": .string("benefit"),
            "card": .string("Amex Platinum"), "due": .string("2026-11-30T23:59:00-05:00"),
        ]),
        .object(["id": .string("m2x9"), "title": .string("Uber One"), "kind": .string("benefit")]),
    ])

    @Test func anAmbiguousNameListsEachCandidateWithCardAndDue() {
        let error = VarlinkError(
            name: names.ambiguousName, parameters: ["name": .string("uber"), "candidates": candidates])
        #expect(
            ErrorWording.message(error) == """
                "uber" names 2 items; nothing was changed. Say which, by its id or more of its title:
                  k4s8  Uber Cash  benefit  Amex Platinum  due 2026-11-30
                  m2x9  Uber One  benefit
                """)
    }

    @Test func aDuplicateSaysWhatExistsAndHowToAddAnyway() {
        let error = VarlinkError(
            name: names.duplicate,
            parameters: [
                "reason": .string("benefit \"Uber Cash\" on Amex Platinum is tracked already"), "existing": candidates,
            ])
        let message = ErrorWording.message(error)
        #expect(
            message.hasPrefix("benefit \"Uber Cash\" on Amex Platinum is tracked already; nothing was added:\n  k4s8"))
        #expect(message.hasSuffix("\nTo add it anyway: the same command with --force"))
    }

    @Test func aCardTypoAsksDidYouMean() {
        let error = VarlinkError(
            name: names.nearCard,
            parameters: ["card": .string("Sapphire Reserv"), "known": .array([.string("Sapphire Reserve")])])
        #expect(
            ErrorWording.message(error)
                == "no item is on a card \"Sapphire Reserv\" yet; did you mean \"Sapphire Reserve\"? Nothing was stored. "
                + "If it is a new card: the same command with --new-card")
    }

    @Test func aMistypedCommandIsBlamedWithTheNearestCommands() {
        let commands = ["add", "list", "show", "snooze", "summary", "status"]
        #expect(unknownCommand("lsit", among: commands) == "no command \"lsit\"; did you mean list?")
        #expect(unknownCommand("ad", among: commands) == "no command \"ad\"; did you mean add?")
        #expect(
            unknownCommand("frobnicate", among: commands)
                == "no command \"frobnicate\"; see the commands with: reminderctl --help")
    }
}
