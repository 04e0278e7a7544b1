import ReminderJSON

/// Where the account's password comes from.
public enum PasswordSource: Hashable, Sendable {
    /// `passwordCommand`: run through `/bin/sh -c`, its first output line is the password.
    case command(String)
    /// `passwordFile`: a file only its owner may read (mode 0600 or stricter).
    case file(String)
    /// Neither given: the Secret Service (GNOME Keyring, KWallet) entry with attributes
    /// `service reminderd`, `username <username>`.
    case secretService
}

/// The config file's `"sync"` object: the CalDAV account `reminderd-sync` and `reminderctl sync
/// setup` use. It lives here, beside `Configuration`, so that the one config loader validates it
/// (the daemon itself, which has no network, ignores it). No password is ever kept in it.
public struct SyncSettings: Hashable, Sendable {
    /// The server's address as the user gave it: an http(s) URL, checked to parse as one.
    public let url: String
    public let username: String
    public let password: PasswordSource
    /// The task list's path segment in the calendar home (and its display name when created).
    public let calendar: String
    /// The optional one-way VEVENT mirror calendar (`export --ics`), for clients that read only
    /// events; `nil` when none is wanted.
    public let mirror: String?
    /// `allowPlainHttp`: the user accepted that an `http://` address on a host that is not
    /// loopback carries the password in clear (with Basic auth, which a server or a man in the middle may ask for). Without it
    /// `reminderctl sync setup` and `reminderd-sync` refuse such an address (`plainHTTPRefusal`).
    public let allowPlainHTTP: Bool
    /// `otherTasks`: remind the tasks other apps (Tasks.org, Thunderbird, …) keep in the task
    /// list, and complete them there on Done (docs/SYNC-FORMAT.md, "Other apps' tasks"). Off:
    /// they are left alone, as before.
    public let otherTasks: Bool

    public static let defaultCalendar = "reminderd"

    public init(
        url: String, username: String, password: PasswordSource, calendar: String = defaultCalendar,
        mirror: String? = nil, allowPlainHTTP: Bool = false, otherTasks: Bool = false
    ) {
        self.url = url
        self.username = username
        self.password = password
        self.calendar = calendar
        self.mirror = mirror
        self.allowPlainHTTP = allowPlainHTTP
        self.otherTasks = otherTasks
    }

    /// Reads `{"url", "username", "passwordCommand" | "passwordFile", "calendar", "mirror",
    /// "allowPlainHttp", "otherTasks"}` at
    /// `path`, refusing unknown fields, both password sources at once, and values a server would
    /// trip over later, each with its field's path.
    public init(_ value: JSONValue, path: String = "sync") throws(FieldError) {
        var fields = try FieldReader(value, path: path)
        guard let url = try fields.string("url") else {
            throw .missingField(field: fields.fieldPath("url"), reason: "the CalDAV server's address")
        }
        if let problem = Self.urlProblem(url) {
            throw .invalidValue(field: fields.fieldPath("url"), reason: problem)
        }
        guard let username = try fields.string("username"), !username.isEmpty else {
            throw .missingField(field: fields.fieldPath("username"), reason: "the account's user name")
        }
        let command = try fields.string("passwordCommand")
        let file = try fields.string("passwordFile")
        switch (command, file) {
        case (let command?, nil):
            guard !command.isEmpty else {
                throw .invalidValue(field: fields.fieldPath("passwordCommand"), reason: "is empty")
            }
            password = .command(command)
        case (nil, let file?):
            guard !file.isEmpty else {
                throw .invalidValue(field: fields.fieldPath("passwordFile"), reason: "is empty")
            }
            password = .file(file)
        case (nil, nil): password = .secretService
        case (.some, .some):
            throw .invalidValue(field: path, reason: "has both passwordCommand and passwordFile; keep one")
        }
        calendar = try fields.string("calendar") ?? Self.defaultCalendar
        if let problem = Self.segmentProblem(calendar) {
            throw .invalidValue(field: fields.fieldPath("calendar"), reason: problem)
        }
        mirror = try fields.string("mirror")
        if let mirror {
            if let problem = Self.segmentProblem(mirror) {
                throw .invalidValue(field: fields.fieldPath("mirror"), reason: problem)
            }
            if mirror == calendar {
                throw .invalidValue(
                    field: fields.fieldPath("mirror"),
                    reason: "\(quoted(mirror)) is the task list itself; the mirror needs a calendar of its own")
            }
        }
        allowPlainHTTP = try fields.boolean("allowPlainHttp") ?? false
        otherTasks = try fields.boolean("otherTasks") ?? false
        try fields.rejectUnknown()
        self.url = url
        self.username = username
    }

    /// The object as the config file holds it (what `reminderctl sync setup` writes).
    public var json: JSONValue {
        var object: [String: JSONValue] = ["url": .string(url), "username": .string(username)]
        switch password {
        case .command(let command): object["passwordCommand"] = .string(command)
        case .file(let file): object["passwordFile"] = .string(file)
        case .secretService: break
        }
        object["calendar"] = .string(calendar)
        if let mirror { object["mirror"] = .string(mirror) }
        if allowPlainHTTP { object["allowPlainHttp"] = .bool(true) }
        if otherTasks { object["otherTasks"] = .bool(true) }
        return .object(object)
    }

    /// Why `text` is not an http(s) URL with a host, or `nil`. Checked here, without Foundation,
    /// strictly enough that Foundation's `URL(string:)` accepts whatever passes: only the
    /// characters RFC 3986 allows, and no user name or password inside the address.
    /// The value is named in each (escaped: it may come from a hand-edited file), except a
    /// password written into the address, which is left out.
    static func urlProblem(_ text: String) -> String? {
        let example = "\(shownURL(text)) must be an http(s) address such as https://dav.example.org/alice/"
        let lower = text.lowercased()
        guard let schemeEnd = ["https://", "http://"].first(where: lower.hasPrefix) else { return example }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
        if let bad = text.first(where: { !allowed.contains($0) }) {
            return "\(shownURL(text)) has \(shownURL(String(bad))), which a URL cannot hold unescaped"
        }
        let rest = text.dropFirst(schemeEnd.count)
        let authority = rest.prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let user = String(userInfo.prefix { $0 != ":" })
            let password = user.count < userInfo.count ? ":…" : ""
            let hidden = text.prefix(schemeEnd.count) + user + password + rest.dropFirst(userInfo.count)
            return "\(shownURL(String(hidden))) holds a user name; put it in sync.username, not in the address"
        }
        guard let host = host(ofAuthority: authority) else {
            let port = authority.lastIndex(of: ":").map { authority[authority.index(after: $0)...] } ?? ""
            return "\(shownURL(text)) has \(quoted(String(port))), which is not a port number (1 to 65535)"
        }
        return host.isEmpty ? example : nil
    }

    /// The server's host as `url` names it (an IPv6 address without its brackets), for the
    /// `user@host` that `reminderctl` says before reminderd-sync has reported the account; nil
    /// when `url` has none (the loader refuses such a `url`).
    public var host: String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let authority = url[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        let afterUser = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        guard var host = Self.host(ofAuthority: afterUser), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return String(host)
    }

    /// The host of a URL's authority (`[::1]` with its brackets), nil when its port is not
    /// a number from 1 to 65535.
    static func host(ofAuthority authority: Substring) -> Substring? {
        guard let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") else { return authority }
        let port = authority[authority.index(after: colon)...]
        guard let number = Int(port), (1...65535).contains(number) else { return nil }
        return authority[..<colon]
    }

    /// Why `name` cannot be a calendar's path segment in the calendar home, or `nil`.
    static func segmentProblem(_ name: String) -> String? {
        if name.isEmpty || name == "." || name == ".." { return "must be a calendar name such as reminderd" }
        if name.contains("/") { return "\(quoted(name)) is one name in the calendar home, without \"/\"" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(quoted(name)) has a control character"
        }
        return nil
    }
}

/// A URL as a message quotes it: in double quotes, with `"`, `\` and control or format
/// characters escaped (a hand-edited value may hold a newline or an ANSI escape that would
/// garble the terminal or the journal), and cut after 200 characters.
func shownURL(_ text: String) -> String {
    var shown = ""
    for (count, scalar) in text.unicodeScalars.enumerated() {
        if count == 200 {
            shown += "…"
            break
        }
        switch scalar {
        case "\"": shown += "\\\""
        case "\\": shown += "\\\\"
        case "\n": shown += "\\n"
        case "\r": shown += "\\r"
        case "\t": shown += "\\t"
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
    }
    return "\"\(shown)\""
}
