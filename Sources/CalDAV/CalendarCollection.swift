import DAVXML
import FoundationEssentials

/// What a calendar collection says about itself in one PROPFIND: enough to pick the task list and
/// to know whether anything changed since the last sync.
public struct CalendarCollection: Sendable, Equatable {
    public let url: URL
    public let displayName: String?
    /// `supported-calendar-component-set`; empty when the server does not say, which RFC 4791
    /// §5.2.3 reads as "every component".
    public let components: Set<String>
    /// RFC 6578's token; nil when the collection does not offer `sync-collection`, so the caller
    /// falls back to `getctag` and an ETag listing.
    public let syncToken: String?
    public let ctag: String?

    public var holdsTasks: Bool { components.isEmpty || components.contains("VTODO") }

    /// The collection described by one PROPFIND response, or nil when it is not a calendar.
    init?(_ response: MultistatusResponse) {
        let dav = DAVNamespace.dav
        let caldav = DAVNamespace.caldav
        guard response.property(dav, "resourcetype")?.first(caldav, "calendar") != nil else { return nil }
        url = response.href
        let name = response.property(dav, "displayname")?.trimmedText
        displayName = name?.isEmpty == false ? name : nil
        let set = response.property(caldav, "supported-calendar-component-set")?.all(caldav, "comp") ?? []
        components = Set(set.compactMap { $0.attributes["name"] })
        let token = response.property(dav, "sync-token")?.trimmedText
        syncToken = token?.isEmpty == false ? token : nil
        let tag = response.property(DAVNamespace.calendarServer, "getctag")?.trimmedText
        ctag = tag?.isEmpty == false ? tag : nil
    }

    static let properties = [
        "<D:resourcetype/>", "<D:displayname/>", "<C:supported-calendar-component-set/>", "<D:sync-token/>",
        "<CS:getctag/>",
    ]
}
