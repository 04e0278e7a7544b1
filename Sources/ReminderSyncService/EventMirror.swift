import CalDAV
import FoundationEssentials
import ReminderProtocol

/// The optional one-way VEVENT mirror (`"sync": {…, "mirror": NAME}`): reminderd's `Calendar`
/// export written to a calendar of events beside the task list, for people whose phone shows
/// only its calendar (iCloud users among them: their Reminders lists are not on CalDAV). Run
/// after a successful pass; the calendar is created (VEVENT only) when missing, an event is
/// written only when its content changed, and the mirror's own events that are no longer in the
/// export are deleted. Nothing is read back into reminderd: edits on the phone are overwritten.
public struct EventMirror {
    /// Days of the export: a year of annual fees and renewals, and a little more.
    public static let days = 400

    let session: SyncSession
    let link: any DaemonLink
    let name: String

    public init(session: SyncSession, link: any DaemonLink, name: String) {
        (self.session, self.link, self.name) = (session, link, name)
    }

    /// What the mirror did, for the journal.
    public struct Summary: Equatable, Sendable {
        public var written = 0
        public var deleted = 0

        public init(written: Int = 0, deleted: Int = 0) { (self.written, self.deleted) = (written, deleted) }
    }

    /// Brings the mirror calendar up to date; the failure in words when it could not.
    public func run() -> Result<Summary, PassFailure> {
        do throws(PassError) {
            return .success(try update())
        } catch {
            let failure = error.failure
            return .failure(PassFailure(words: "the mirror \"\(name)\": \(failure.words)", kind: failure.kind))
        }
    }

    func update() throws(PassError) -> Summary {
        let ics: String
        do { ics = try link.call(.calendar(.init(days: Self.days)), as: CalendarReply.self).ics } catch { throw .daemon(error) }
        let wanted: [MirrorEvent]
        do { wanted = try MirrorEvent.events(fromExport: ics) } catch {
            throw .daemon(.refused(method: "Calendar", .init(name: "unreadable export", parameters: [:])))
        }
        let client = session.client
        let calendar = try locate()
        var held: [String: (url: URL, etag: String?, hash: String?)] = [:]
        do {
            let listed = try client.listETags(in: calendar)
            for resource in try client.multiget(in: calendar, hrefs: listed.map(\.href)).found {
                held[resource.href.lastPathComponent] = (
                    resource.href, resource.etag, MirrorEvent.hash(of: resource.calendarData)
                )
            }
        } catch { throw .server(error) }
        var summary = Summary()
        for event in wanted where held[event.name]?.hash != event.hash {
            let url = calendar.appendingPathComponent(event.name)
            let condition = held[event.name]?.etag.map { WriteCondition.update(etag: $0) } ?? .create
            do { _ = try client.put(url, calendarData: event.body, condition) } catch .preconditionFailed {
                continue  // another device wrote it meanwhile: compared again at the next pass
            } catch { throw .server(error) }
            summary.written += 1
        }
        let names = Set(wanted.map(\.name))
        for (name, resource) in held where resource.hash != nil && !names.contains(name) {
            do { try client.delete(resource.url, etag: resource.etag) } catch .preconditionFailed { continue } catch {
                throw .server(error)
            }
            summary.deleted += 1
        }
        return summary
    }

    /// The mirror calendar beside the task list, created for events when missing.
    func locate() throws(PassError) -> URL {
        let home = session.taskList.deletingLastPathComponent()
        let wanted = home.appendingPathComponent(name, isDirectory: true)
        do throws(DAVError) {
            let found: CalendarCollection
            do throws(DAVError) { found = try session.client.calendar(at: wanted) } catch .notFound {
                let made = try session.client.makeCalendar(in: home, segment: name, displayName: name, component: "VEVENT")
                found = try session.client.calendar(at: made)
            }
            guard found.components.isEmpty || found.components.contains("VEVENT") else {
                throw DAVError.notACalendar(url: "\(found.url.absoluteString) (it holds no events)")
            }
            return found.url
        } catch { throw .server(error) }
    }
}
