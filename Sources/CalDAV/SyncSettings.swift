import Foundation
import ReminderJSON

/// Where the account's password comes from.
public enum PasswordSource: Sendable, Equatable {
    /// `passwordCommand`: run through `/bin/sh -c`, its first output line is the password.
    case command(String)
    /// `passwordFile`: a file only its owner may read (mode 0600 or stricter).
    case file(String)
    /// Neither given: the Secret Service (GNOME Keyring, KWallet) entry with attributes
    /// `service reminderd`, `username <username>`.
    case secretService
}

/// The config file's `"sync"` object.
public struct SyncSettings: Sendable, Equatable {
    public let url: URL
    public let username: String
    public let password: PasswordSource
    /// The task list's path segment in the calendar home (and its display name when created).
    public let calendar: String

    public init(url: URL, username: String, password: PasswordSource, calendar: String = "reminderd") {
        self.url = url
        self.username = username
        self.password = password
        self.calendar = calendar
    }

    /// Reads `{"url", "username", "passwordCommand" | "passwordFile", "calendar"}` at `path`,
    /// refusing unknown fields and both password sources at once.
    public init(_ value: JSONValue, path: String = "sync") throws(FieldError) {
        var fields = try FieldReader(value, path: path)
        guard let urlText = try fields.string("url") else {
            throw .missingField(field: fields.fieldPath("url"), reason: "the CalDAV server's address")
        }
        guard let url = URL(string: urlText), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw .invalidValue(
                field: fields.fieldPath("url"),
                reason: "must be an http(s) address such as https://dav.example.org/alice/")
        }
        guard let username = try fields.string("username"), !username.isEmpty else {
            throw .missingField(field: fields.fieldPath("username"), reason: "the account's user name")
        }
        let command = try fields.string("passwordCommand")
        let file = try fields.string("passwordFile")
        switch (command, file) {
        case (let command?, nil): password = .command(command)
        case (nil, let file?): password = .file(file)
        case (nil, nil): password = .secretService
        case (.some, .some):
            throw .invalidValue(field: path, reason: "has both passwordCommand and passwordFile; keep one")
        }
        calendar = try fields.string("calendar") ?? "reminderd"
        try fields.rejectUnknown()
        self.url = url
        self.username = username
    }
}
