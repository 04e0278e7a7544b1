/// The XML trees of the answers (XMLElement, XMLTree) are part of this module's API.
@_exported import DAVXML
import FoundationEssentials

/// The XML namespaces CalDAV answers use.
public enum DAVNamespace {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    /// Apple's calendarserver namespace, home of `getctag`.
    public static let calendarServer = "http://calendarserver.org/ns/"
}

/// One `<response>` of a 207 Multi-Status: the resource's href (resolved to an absolute URL), its
/// own status when it has no properties (sync-collection's 404 for a removed member), and the
/// properties the server returned with a 2xx status.
public struct MultistatusResponse: Sendable, Equatable {
    public let href: URL
    public let status: Int?
    public let properties: [XMLElement]

    public func property(_ namespace: String, _ name: String) -> XMLElement? {
        properties.first { $0.namespace == namespace && $0.name == name }
    }

    public var etag: String? {
        guard let text = property(DAVNamespace.dav, "getetag")?.trimmedText, !text.isEmpty else { return nil }
        return text
    }
}

/// A parsed 207 Multi-Status body (RFC 4918 §13), with the sync token of a sync-collection report.
public struct Multistatus: Sendable, Equatable {
    public let responses: [MultistatusResponse]
    public let syncToken: String?

    /// Reads `root`, an answer to a request for `base`, whose hrefs are resolved against it.
    public init(_ root: XMLElement, base: URL, request: String) throws(DAVError) {
        let dav = DAVNamespace.dav
        guard root.namespace == dav, root.name == "multistatus" else {
            throw .missingProperty(request: request, property: "DAV:multistatus (the answer is <\(root.name)>)")
        }
        var responses: [MultistatusResponse] = []
        for response in root.all(dav, "response") {
            guard let hrefText = response.first(dav, "href")?.trimmedText,
                let href = URL(string: hrefText, relativeTo: base)?.absoluteURL
            else {
                throw .missingProperty(request: request, property: "a usable DAV:href in a response")
            }
            var properties: [XMLElement] = []
            for propstat in response.all(dav, "propstat") {
                let status = Self.statusCode(propstat.first(dav, "status")?.trimmedText)
                if let status, (200..<300).contains(status), let prop = propstat.first(dav, "prop") {
                    properties += prop.children
                }
            }
            let status = Self.statusCode(response.first(dav, "status")?.trimmedText)
            responses.append(MultistatusResponse(href: href, status: status, properties: properties))
        }
        self.responses = responses
        let token = root.first(dav, "sync-token")?.trimmedText
        self.syncToken = token?.isEmpty == false ? token : nil
    }

    /// "HTTP/1.1 404 Not Found" → 404.
    static func statusCode(_ line: String?) -> Int? {
        guard let line else { return nil }
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

/// Two URLs name the same resource when their paths match, whatever the server's choice of
/// absolute or relative hrefs and of percent-encoding.
public func sameResource(_ first: URL, _ second: URL) -> Bool {
    normalisedPath(first) == normalisedPath(second) && first.host == second.host && first.port == second.port
}

func normalisedPath(_ url: URL) -> String {
    let path = percentDecoded(url.path) ?? url.path
    return path.hasSuffix("/") ? String(path.dropLast()) : path
}

/// `%20` → space, as Foundation's `removingPercentEncoding` (not in FoundationEssentials): nil
/// when a `%` starts no two hex digits or the bytes are not UTF-8.
func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8.makeIterator()
    while let byte = utf8.next() {
        guard byte == UInt8(ascii: "%") else {
            bytes.append(byte)
            continue
        }
        guard let high = utf8.next(), let low = utf8.next(),
            let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
        else { return nil }
        bytes.append(value)
    }
    return String(validating: bytes, as: UTF8.self)
}
