import ArgumentParser

/// The options of `reminderctl sync setup` and `reminderd-sync setup`, declared once: reminderctl
/// parses them (its help and usage errors stay its own) and hands them over to reminderd-sync,
/// which does the setup with the CalDAV client reminderctl does not link.
public struct SyncSetupOptions: ParsableArguments {
    public static let abstract = "Check a CalDAV account, create its task list, and save it in the config."

    public static let discussion = """
        Asks for what the flags leave out (on a terminal; the password without echo). The \
        password goes to the Secret Service (GNOME Keyring, KeePassXC, KWallet) unless \
        --password-file or --password-command says where to read it. Then start syncing: \
        systemctl --user enable --now reminderd-sync (restart it if it runs already).

        An http:// address on another machine is refused: the password would go in clear on \
        every request. Use https://, or accept that with --allow-plain-http (saved in the \
        config as "allowPlainHttp": true; sync status then says so). Loopback addresses \
        (localhost, 127.0.0.0/8, [::1]) need no flag.

        --other-tasks (saved as "otherTasks": true) reminds the tasks other apps keep in the \
        task list too, those with a due date that do not repeat; --no-other-tasks turns it \
        off. Run again without either, the setting stays.

        reminderctl sync setup runs reminderd-sync setup (next to reminderctl, else on PATH) \
        with the same options: the check needs reminderd-sync's CalDAV client.

        Examples:
          reminderctl sync setup
          reminderctl sync setup --url https://dav.example.org/ --username alice --password-file ~/.dav-password
        """

    @Option(help: "The CalDAV server's address, e.g. https://dav.example.org/.") public var url: String?
    @Option(help: "The account's user name.") public var username: String?
    @Option(help: "The task list's name on the server (default reminderd).") public var calendar: String?
    @Option(name: .customLong("password-file"), help: "A file only you can read (chmod 600) holding the password.")
    public var passwordFile: String?
    @Option(name: .customLong("password-command"), help: "A command printing the password, e.g. 'pass show dav'.")
    public var passwordCommand: String?
    @Flag(
        name: .customLong("allow-plain-http"),
        help: "Accept an http:// address on another machine, which gets the password in clear on every request.")
    public var allowPlainHttp = false
    @Flag(
        name: .customLong("other-tasks"), inversion: .prefixedNo,
        help: "Also remind the tasks other apps keep in the task list, and complete them there on Done.")
    public var otherTasks: Bool?
    @Option(help: "Config file to write (default ~/.config/reminderd/config.json).") public var config: String?

    public init() {}

    public func validate() throws {
        if passwordFile != nil && passwordCommand != nil {
            throw ValidationError("give --password-file or --password-command, not both")
        }
    }

    /// The options as command-line words again, each given one as `--name=value` (a value that
    /// starts with "-" stays a value): what `reminderctl sync setup` passes to `reminderd-sync setup`.
    public var arguments: [String] {
        var words: [String] = []
        let values: [(String, String?)] = [
            ("--url", url), ("--username", username), ("--calendar", calendar), ("--password-file", passwordFile),
            ("--password-command", passwordCommand), ("--config", config),
        ]
        for case (let name, let value?) in values { words.append("\(name)=\(value)") }
        if allowPlainHttp { words.append("--allow-plain-http") }
        if let otherTasks { words.append(otherTasks ? "--other-tasks" : "--no-other-tasks") }
        return words
    }
}
