import ArgumentParser
import ReminderCore
import ReminderProtocol

/// `reminderctl try`: a sample reminder on screen now, whatever the hour — the first thing to run,
/// so that a person sees within a minute what reminderd shows and that its buttons answer, without
/// waiting for a real reminder's time (quiet hours hold those until they end).
struct TryIt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "try",
        abstract: "Show a sample reminder now, whatever the hour; its buttons change nothing.",
        discussion: "Example: reminderctl try")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.showSample, as: SampleReply.self) else { return }
        // The daemon isolates the title (bidi); the terminal gets it plain, control characters shown.
        let title = shown(String(reply.summary.unicodeScalars.filter { $0 != "\u{2068}" && $0 != "\u{2069}" }))
        let buttons = reply.buttons.map(shown)
        print(_t("A sample reminder is on your screen: \"%1$s\".").filled(title))
        if buttons.isEmpty {
            print(_t("Your notification server shows no buttons: reminders name the command instead (reminderctl done ID)."))
        } else {
            print(_t("Press %1$s: each says what it would do, and changes nothing.").filled(buttons.joined(separator: ", ")))
        }
        print(_t("Real reminders come at your reminder time, outside quiet hours: reminderctl explain ID says when."))
    }
}
