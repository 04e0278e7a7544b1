import Glibc
import ReminderPlatform
import Testing

/// Every "start it" message takes its words from `StartHint`, which names what this installation
/// really has: a checkout's `scripts/run.sh`, the user units, or the `reminderd` beside the program.
@Suite struct StartHintTests {
    /// A fresh folder with `files` (paths inside it) made as empty files.
    static func folder(with files: [String]) -> String {
        var template = Array("/tmp/reminderd-start-hint-XXXXXX".utf8CString)
        let root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        for file in files {
            let path = root + "/" + file
            var parent = ""
            for component in path.split(separator: "/").dropLast() {
                parent += "/" + component
                mkdir(parent, 0o700)
            }
            close(open(path, O_CREAT | O_WRONLY, 0o600))
        }
        return root
    }

    @Test func aCheckoutsBuildNamesItsRunScriptEvenWithTheUnitsInstalled() {
        let root = Self.folder(with: ["repo/scripts/run.sh", "units/reminderd.socket"])
        let hint = StartHint.hint(
            executable: root + "/repo/.build/x86_64-unknown-linux-gnu/debug/reminderctl",
            unitDirectories: [root + "/units"])
        #expect(hint == "cd \(root)/repo && scripts/run.sh")
    }

    @Test func installedUnitsAreEnabledThroughTheSocket() {
        let root = Self.folder(with: ["units/reminderd.socket"])
        #expect(
            StartHint.hint(executable: "/usr/bin/reminderctl", unitDirectories: [root + "/none", root + "/units"])
                == "systemctl --user enable --now reminderd.socket")
    }

    @Test func withoutUnitsOrACheckoutTheReminderdBesideTheProgramIsNamed() {
        let root = Self.folder(with: ["bin/reminderctl"])
        #expect(
            StartHint.hint(executable: root + "/bin/reminderctl", unitDirectories: [root + "/units"])
                == "\(root)/bin/reminderd (in your desktop session)")
        // A ".build" folder that is not a checkout's (no scripts/run.sh above it) is not one.
        #expect(
            StartHint.hint(executable: root + "/.build/reminderctl", unitDirectories: [])
                == "\(root)/.build/reminderd (in your desktop session)")
    }
}
