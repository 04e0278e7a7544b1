import CalDAV
import FoundationEssentials
import ReminderCore

/// The server side of passes: a client holding the account's password, and the task list found
/// on the server. Opened once and kept while passes succeed, so a `refresh` before a pop-up costs
/// no discovery and no password lookup; dropped after a failure that may mean the password or
/// the list changed (`PassFailure.dropsSession`), so the next pass looks them up again and a
/// changed password needs no restart.
public struct SyncSession: Sendable {
    public let client: CalDAVClient
    public let taskList: URL
    /// The list offers RFC 6578 sync-collection (it has a sync token); without it every pass
    /// lists the ETags.
    public let offersSyncCollection: Bool
    /// user@host, as `SyncBegin` and `sync status` name the account.
    public let account: String

    public init(client: CalDAVClient, taskList: URL, offersSyncCollection: Bool, account: String) {
        self.client = client
        self.taskList = taskList
        self.offersSyncCollection = offersSyncCollection
        self.account = account
    }

    /// Looks up the password, discovers the calendar home as `reminderctl sync setup` does, and
    /// finds the task list there. A missing list is not created: setup does that, with the
    /// person watching, and a list that vanished from the server is news worth reporting.
    public static func open(
        _ settings: SyncSettings, transport: any HTTPTransport,
        password: (SyncSettings) throws(PasswordError) -> String = PasswordLookup.password
    ) throws(PassFailure) -> SyncSession {
        guard let url = URL(string: settings.url), let host = url.host else {
            throw PassFailure(words: "sync.url \(settings.url) is not an address", kind: .waitForTrigger)
        }
        let secret: String
        do { secret = try password(settings) } catch {
            throw PassFailure(words: "no password: \(error.description)", kind: .waitForTrigger)
        }
        let client = CalDAVClient(
            account: url, credentials: Credentials(username: settings.username, password: secret), transport: transport)
        do {
            let home = try client.discover().calendarHome
            let wanted = home.appendingPathComponent(settings.calendar, isDirectory: true)
            let list: CalendarCollection
            do { list = try client.calendar(at: wanted) } catch .notFound {
                throw PassFailure(
                    words: "the task list \"\(settings.calendar)\" is not on the server (\(wanted.absoluteString)); "
                        + "run reminderctl sync setup", kind: .waitForTrigger)
            }
            guard list.holdsTasks else {
                throw PassFailure(
                    words: "\(list.url.absoluteString) is a calendar that cannot hold tasks; choose another "
                        + "sync.calendar (reminderctl sync setup --calendar NAME)", kind: .waitForTrigger)
            }
            return SyncSession(
                client: client, taskList: list.url, offersSyncCollection: list.syncToken != nil,
                account: "\(settings.username)@\(host)")
        } catch let failure as PassFailure {
            throw failure
        } catch let error as DAVError {
            throw PassFailure(error)
        } catch {
            throw PassFailure(words: "\(error)", kind: .waitForTrigger)
        }
    }
}

/// Why a pass did not succeed: the words for `SyncReport` (and the journal), and what the loop
/// does about it.
public struct PassFailure: Error, Equatable, Sendable {
    public enum Kind: Sendable {
        /// A network error, a timeout, a 5xx: back off and try again.
        case retryable
        /// Credentials, rights, configuration, a refused change: trying again changes nothing
        /// until something else does, so the next trigger or period.
        case waitForTrigger
        /// The connection to reminderd is gone: reconnect.
        case daemonLost
        /// SIGTERM arrived mid-pass: the current request was finished, the rest left for the next run.
        case stopped
    }

    public let words: String
    public let kind: Kind
    /// The session may be stale (a password or a task list that changed): open a new one.
    public let dropsSession: Bool

    public init(words: String, kind: Kind, dropsSession: Bool = true) {
        self.words = words
        self.kind = kind
        self.dropsSession = dropsSession
    }

    public init(_ error: DAVError) {
        let stale: Bool
        switch error {
        case .accessDenied, .notFound, .notACalendar, .redirectLoop, .redirectRefused: stale = true
        default: stale = false
        }
        self.init(words: ServerFailureWording.words(error), kind: error.isRetryable ? .retryable : .waitForTrigger,
                  dropsSession: stale)
    }
}
