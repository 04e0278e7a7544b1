import FoundationEssentials

/// One HTTP request as the CalDAV client builds it; the transport sends it as it is.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    /// Header names as they go on the wire; the transport adds none but `User-Agent` and the
    /// `Authorization` the server's authentication scheme needs.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// "PROPFIND https://dav.example.org/alice/", the words every error about it starts with.
    public var summary: String { "\(method) \(url.absoluteString)" }
}

/// One HTTP answer. Header names are lower-cased, so lookups need not care how the server spelt them.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The user name and password, sent with Basic or Digest authentication as the server asks.
public struct Credentials: Sendable, Equatable {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// Sends one request and blocks until its answer has arrived. Redirects are never followed here:
/// `CalDAVClient` follows them itself, only where that is safe (discovery), so that it can name a
/// loop and keep the password on the server the user configured.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest, credentials: Credentials?) throws(DAVError) -> HTTPResponse
}
