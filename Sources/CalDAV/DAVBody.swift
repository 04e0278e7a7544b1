import FoundationEssentials
import ReminderCore

/// The XML bodies the client sends, with the prefixes they use: D = DAV:, C = CalDAV,
/// CS = calendarserver.
enum DAVBody {
    private static let namespaces =
        #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/""#

    static func propfind(_ properties: [String]) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><D:propfind \#(namespaces)><D:prop>"#
            + properties.joined() + "</D:prop></D:propfind>"
    }

    /// RFC 6578: an empty token asks for the initial listing.
    static func syncCollection(token: String?) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><D:sync-collection \#(namespaces)>"#
            + "<D:sync-token>\(markupEscaped(token ?? ""))</D:sync-token><D:sync-level>1</D:sync-level>"
            + "<D:prop><D:getetag/></D:prop></D:sync-collection>"
    }

    static func multiget(hrefs: [String]) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><C:calendar-multiget \#(namespaces)>"#
            + "<D:prop><D:getetag/><C:calendar-data/></D:prop>"
            + hrefs.map { "<D:href>\(markupEscaped($0))</D:href>" }.joined() + "</C:calendar-multiget>"
    }

    /// A calendar of one component: VTODO for the task list, so phones offer it for reminders and
    /// not for events; VEVENT for the mirror.
    static func makeCalendar(displayName: String, component: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><C:mkcalendar \#(namespaces)><D:set><D:prop>"#
            + "<D:displayname>\(markupEscaped(displayName))</D:displayname>"
            + #"<C:supported-calendar-component-set><C:comp name=""# + component
            + #""/></C:supported-calendar-component-set>"# + "</D:prop></D:set></C:mkcalendar>"
    }
}
