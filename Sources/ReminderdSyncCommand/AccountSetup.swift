import ArgumentParser
import CalDAV
import FoundationEssentials
import ReminderCore
import ReminderJSON
import ReminderPlatform
import SyncSetupOptions

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderd-sync setup`, which `reminderctl sync setup` hands over to (execv, same options):
/// it runs here because checking the account needs the CalDAV client (libcurl, libsecret), which
/// reminderctl does not link. It asks for what the flags leave out (on a
/// terminal only), refuses a plain-http address on another machine unless `--allow-plain-http`
/// accepts it, keeps the password in the Secret Service unless a file or command is named (before any request, so a
/// keyring that fails leaves nothing made on the server), checks the account against the server
/// (discovery, then the task list, created when missing), and writes the config's `"sync"` object
/// keeping every other key. Nothing is saved when any step fails: a password stored for an
/// account the server then refused is taken back.
struct AccountSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup", abstract: SyncSetupOptions.abstract, discussion: SyncSetupOptions.discussion)

    @OptionGroup var options: SyncSetupOptions

    var url: String? { options.url }
    var username: String? { options.username }
    var calendar: String? { options.calendar }
    var passwordFile: String? { options.passwordFile }
    var passwordCommand: String? { options.passwordCommand }
    var allowPlainHttp: Bool { options.allowPlainHttp }
    var config: String? { options.config }

    /// The command that starts syncing once the account is saved (as `reminderctl` says it).
    static let startHint = "systemctl --user enable --now reminderd-sync"

    func run() throws {
        let terminal = isatty(STDIN_FILENO) == 1
        let path = config ?? ConfigFile.defaultPath()
        let existing = try readConfigDocument(path)
        var document = existing ?? [:]
        // A broken config is refused before anything is asked: it would be refused after.
        let previous = existing == nil ? nil : try ConfigFile.refusing(path).sync
        let settings = try settings(previous: previous, terminal: terminal)
        // Before the password is asked for or any request goes out.
        if let host = settings.clearTextHost {
            guard settings.allowPlainHTTP else {
                let refusal = SyncSettings.plainHTTPRefusal(url: settings.url, host: host, option: "--allow-plain-http")
                throw Refusal(message: "--url \(refusal); nothing was saved")
            }
            printError("warning: \(SyncSettings.clearTextWarning(host: host))")
        }
        let password = try password(for: settings, terminal: terminal)
        // Stored before the server is touched: a keyring that fails leaves no task list behind.
        let keyring = settings.password == .secretService ? try KeyringEntry(storing: password, for: settings) : nil
        let taskList: URL
        do {
            taskList = try checkAccount(settings, password: password)
            // Found by its display name, the list is kept by its place: reminderd-sync looks it up so.
            let saved = SyncSettings(
                url: settings.url, username: settings.username, password: settings.password,
                calendar: taskList.lastPathComponent, mirror: settings.mirror, allowPlainHTTP: settings.allowPlainHTTP,
                otherTasks: settings.otherTasks)
            document["sync"] = saved.json
            do { _ = try Configuration(json: .object(document)) } catch { throw Refusal(message: "\(path): \(error)") }
            try writeConfigFile(document, to: path)
        } catch let refusal as Refusal {
            guard let keyring else { throw refusal }
            throw Refusal(message: refusal.message + keyring.takeBack(), exitCode: refusal.exitCode)
        } catch {
            // Not a refusal (none is thrown today): the keyring's state is still said.
            if let words = keyring?.takeBack(), !words.isEmpty { printError(String(words.dropFirst(2))) }
            throw error
        }
        if keyring != nil {
            print("Password stored in the Secret Service (service reminderd, username \(settings.username)).")
        }
        print("Sync account saved in \(path) (task list \(taskList.absoluteString)).")
        print("Start syncing with: \(AccountSetup.startHint)")
        print("(If it runs already, it reads the account when restarted: systemctl --user restart reminderd-sync.)")
    }

    /// The account from the flags, the terminal, or the config's earlier `"sync"` object (on a
    /// terminal offered as the answer Enter keeps), validated by the config's own reader; its
    /// errors name the flag.
    func settings(previous: SyncSettings?, terminal: Bool) throws -> SyncSettings {
        let url = try self.url ?? ask("Server address (https://…)", previous?.url, flag: "--url URL", terminal)
        let username = try self.username ?? ask("User name", previous?.username, flag: "--username NAME", terminal)
        var object: [String: JSONValue] = [
            "url": .string(url), "username": .string(username),
            "calendar": .string(calendar ?? previous?.calendar ?? SyncSettings.defaultCalendar),
        ]
        if let passwordFile { object["passwordFile"] = .string(absolute(passwordFile)) }
        if let passwordCommand { object["passwordCommand"] = .string(passwordCommand) }
        // Run again without a password flag, the file or command configured before stays.
        if passwordFile == nil, passwordCommand == nil {
            switch previous?.password {
            case .file(let file)?: object["passwordFile"] = .string(file)
            case .command(let command)?: object["passwordCommand"] = .string(command)
            case .secretService?, nil: break
            }
        }
        if let mirror = previous?.mirror { object["mirror"] = .string(mirror) }
        if options.otherTasks ?? previous?.otherTasks ?? false { object["otherTasks"] = .bool(true) }
        // Accepted once for an address, kept while the address stays; saved only where it matters.
        let accepted = allowPlainHttp || (previous?.allowPlainHTTP == true && previous?.url == url)
        if accepted && SyncSettings.clearTextHost(of: url) != nil { object["allowPlainHttp"] = .bool(true) }
        do { return try SyncSettings(.object(object)) } catch {
            let flags = [
                "sync.url": "--url", "sync.username": "--username", "sync.calendar": "--calendar",
                "sync.passwordFile": "--password-file", "sync.passwordCommand": "--password-command",
                "sync.allowPlainHttp": "--allow-plain-http",
            ]
            throw Refusal.usage("\(flags[error.field] ?? error.field): \(error.reason)")
        }
    }

    /// Asks on the terminal (Enter keeps `current`); without one, `current` or a refusal naming
    /// the flag that gives the value.
    func ask(_ question: String, _ current: String?, flag: String, _ terminal: Bool) throws -> String {
        guard terminal else {
            if let current { return current }
            throw Refusal(message: "no terminal to ask for it: pass \(flag)")
        }
        while true {
            print(current.map { "\(question) [\($0)]: " } ?? "\(question): ", terminator: "")
            fflush(nil)
            guard let line = readLine() else { throw Refusal(message: "no answer; pass \(flag)") }
            let answer = line.trimmingCharacters()
            if !answer.isEmpty { return answer }
            if let current { return current }
        }
    }

    /// The password from the named file or command, or asked for without echo.
    func password(for settings: SyncSettings, terminal: Bool) throws -> String {
        guard settings.password == .secretService else {
            do { return try PasswordLookup.password(for: settings) } catch { throw Refusal(message: error.description) }
        }
        guard terminal else {
            throw Refusal(
                message: "no terminal to ask for the password: pass --password-file PATH or --password-command CMD")
        }
        while true {
            let password = try readHidden("Password for \(settings.username): ")
            if !password.isEmpty { return password }
        }
    }

    /// One line from the terminal with echo off, restored afterwards whatever happens.
    func readHidden(_ prompt: String) throws -> String {
        print(prompt, terminator: "")
        fflush(nil)
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw Refusal(message: "cannot read the terminal's mode") }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            print("")
        }
        guard let line = readLine(strippingNewline: true) else { throw Refusal(message: "no password given") }
        return line
    }

    /// Discovery, then the task list: found, or created (and read back) when missing. Returns
    /// its URL; every failure is one sentence saying what went wrong and that nothing was saved.
    func checkAccount(_ settings: SyncSettings, password: String) throws -> URL {
        guard let account = URL(string: settings.url) else {
            throw Refusal.usage("--url: \(settings.url) is not an address")
        }
        let transport: CurlTransport
        do { transport = try CurlTransport() } catch { throw Refusal(message: error.description) }
        let client = CalDAVClient(
            account: account, credentials: Credentials(username: settings.username, password: password),
            transport: transport)
        var stage = "discovery"
        do {
            let home = try client.discover().calendarHome
            stage = "task list"
            let list: CalendarCollection
            if let found = try AccountSetup.existingTaskList(named: settings.calendar, in: client.calendars(in: home)) {
                list = found
                print("Found the task list \"\(settings.calendar)\" on the server.")
            } else {
                let made = try client.makeTaskList(
                    in: home, segment: settings.calendar, displayName: settings.calendar)
                list = try client.calendar(at: made)
                print("Created the task list \"\(settings.calendar)\" on the server.")
            }
            guard list.holdsTasks else {
                throw Refusal(
                    message: "\(list.url.absoluteString) is a calendar that cannot hold tasks; "
                        + "choose another name with --calendar; nothing was saved")
            }
            return list.url
        } catch let error as DAVError {
            throw Refusal(message: AccountSetup.explain(error, url: settings.url, stage: stage) + "; nothing was saved")
        }
    }

    /// The list `name` names, by the last segment of its URL or by the display name phones show
    /// (a list made on a phone sits at a generated segment); nil when none does. Several are
    /// refused, listed: guessing would sync into the wrong one, and a list's URL is unique.
    static func existingTaskList(named name: String, in lists: [CalendarCollection]) throws -> CalendarCollection? {
        let matches = lists.filter { $0.url.lastPathComponent == name || $0.displayName == name }
        guard matches.count > 1 else { return matches.first }
        // The display names are the server's text.
        let listed = matches.map {
            "\(shown($0.url.absoluteString)) (\"\(shown($0.displayName ?? $0.url.lastPathComponent))\")"
        }
        throw Refusal(
            message: "\(matches.count) task lists on the server are called \"\(shown(name))\": "
                + listed.joined(separator: ", ") + "; pass the last part of the URL of the one you mean "
                + "with --calendar; nothing was saved")
    }

    /// A server's answer in the words a person setting up an account needs.
    static func explain(_ error: DAVError, url: String, stage: String) -> String {
        switch error {
        case .accessDenied(_, 401):
            return "\(url) refused the user name and password (401 Unauthorized): wrong credentials"
        case .accessDenied(let request, let status):
            return "\(request): refused with \(status) (Forbidden): the account may not do this"
        case .network(_, let detail):
            return "cannot reach \(url) (\(detail)): no network, or a wrong address?"
        case .timedOut(_, let seconds):
            return "\(url) did not answer within \(seconds) s: no network, or a wrong address?"
        case .tls(_, let detail):
            return "TLS failure talking to \(url): the server's certificate was not accepted (\(detail))"
        case .notACalendar(let found):
            return "\(found) exists but is not a calendar; choose another name with --calendar"
        case .serverError(_, 501, _) where stage == "discovery",
            .notXML, .malformedXML, .missingProperty, .notFound, .unexpectedStatus, .redirectLoop:
            guard stage == "discovery" else { return once(error) }
            return "\(url) does not look like a CalDAV server (\(once(error))); check --url"
        case .serverError(let request, let status, _):
            return "\(request): server error \(status); try again later"
        default:
            return once(error)
        }
    }

    /// The error's own words without the sync loop's "; will retry": setup tries once.
    static func once(_ error: DAVError) -> String {
        let retry = "; will retry"
        let text = error.description
        return text.hasSuffix(retry) ? String(text.dropLast(retry.count)) : text
    }

    /// The password file as `reminderd-sync` will need it: from any working directory.
    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") || path.hasPrefix("~/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
