internal import CCurl
import FoundationEssentials
import ReminderCore
import Synchronization

/// HTTP over libcurl's easy API: one blocking `curl_easy_perform` per request on the caller's
/// thread. Chosen over FoundationNetworking's URLSession because it starts no thread and arms no
/// timer of its own, so `reminderd-sync` is silent between syncs (docs/ARCHITECTURE.md has the
/// measurements). One easy handle is reused, so requests of one sync share a connection; the
/// mutex serialises them.
public final class CurlTransport: HTTPTransport {
    /// Bounds on one request: a dead server or a trickling one cannot hold a sync forever.
    public struct Limits: Sendable {
        public var connectSeconds = 10
        public var totalSeconds = 60
        public var maximumBodyBytes = 64 << 20

        public init() {}
    }

    private let limits: Limits
    /// A PEM bundle to trust instead of the system's (a self-hosted server's own CA); nil = system.
    private let trustedCertificates: String?
    private let handle: Mutex<EasyHandle>

    /// libcurl is loaded here, the first time (Sources/CCurl/CurlLoader.c says why it is not
    /// linked); without it nothing can be synced, and the error says why in words.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(limits: Limits = Limits(), trustedCertificates: String? = nil) throws(Unavailable) {
        if let failure = reminderd_curl_load() { throw Unavailable(description: String(cString: failure)) }
        Self.initialiseOnce
        self.limits = limits
        self.trustedCertificates = trustedCertificates
        self.handle = Mutex(EasyHandle())
    }

    /// curl_global_init is not thread-safe; a static let runs it exactly once.
    private static let initialiseOnce: Void = { _ = reminderd_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public func send(_ request: HTTPRequest, credentials: Credentials?) throws(DAVError) -> HTTPResponse {
        try handle.withLock { (easy: inout EasyHandle) throws(DAVError) -> HTTPResponse in
            var (response, offered) = try perform(
                request, credentials: credentials, schemes: easy.schemes, on: easy.pointer)
            // Basic was sent and refused by a server that asks for Digest: asked again, as it asks.
            if response.status == 401, easy.schemes == AuthScheme.basic, offered & AuthScheme.digest != 0 {
                (response, offered) = try perform(
                    request, credentials: credentials, schemes: AuthScheme.negotiated, on: easy.pointer)
            }
            if offered & AuthScheme.digest != 0 {
                easy.schemes = AuthScheme.negotiated
            } else if offered & AuthScheme.basic != 0 {
                easy.schemes = AuthScheme.basic
            }
            return response
        }
    }

    /// The answer, and the schemes the server's 401 challenge offered (0 when it sent none).
    private func perform(
        _ request: HTTPRequest, credentials: Credentials?, schemes: Int, on curl: UnsafeMutableRawPointer
    ) throws(DAVError) -> (HTTPResponse, offered: Int) {
        reminderd_curl_easy_reset(curl)
        let collector = ResponseCollector(limit: limits.maximumBodyBytes)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { reminderd_curl_slist_free_all(headerList) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = reminderd_curl_slist_append(headerList, "\(name): \(value)")
        }
        headerList = reminderd_curl_slist_append(headerList, "Expect:")  // no 100-continue round trip

        let code = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            let context = Unmanaged.passUnretained(collector).toOpaque()
            reminderd_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
            reminderd_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            reminderd_curl_set_string(curl, CURLOPT_URL, request.url.absoluteString)
            reminderd_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
            reminderd_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method)
            reminderd_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
            reminderd_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
            reminderd_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
            if let trustedCertificates { reminderd_curl_set_string(curl, CURLOPT_CAINFO, trustedCertificates) }
            reminderd_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT, limits.connectSeconds)
            reminderd_curl_set_long(curl, CURLOPT_TIMEOUT, limits.totalSeconds)
            reminderd_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
            reminderd_curl_set_string(curl, CURLOPT_USERAGENT, "reminderd-sync/\(ReminderVersion.current)")
            reminderd_curl_set_pointer(curl, CURLOPT_HTTPHEADER, headerList)
            if let credentials {
                reminderd_curl_set_long(curl, CURLOPT_HTTPAUTH, schemes)
                reminderd_curl_set_string(curl, CURLOPT_USERNAME, credentials.username)
                reminderd_curl_set_string(curl, CURLOPT_PASSWORD, credentials.password)
            }
            if !request.body.isEmpty {
                reminderd_curl_set_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
                request.body.withUnsafeBytes { bytes in
                    _ = reminderd_curl_set_pointer(
                        curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            reminderd_curl_set_write_function(curl, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue().appendBody(data, size * count)
            }
            reminderd_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
            reminderd_curl_set_write_function(curl, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue().appendHeader(data, size * count)
            }
            reminderd_curl_set_pointer(curl, CURLOPT_HEADERDATA, context)
            return reminderd_curl_easy_perform(curl)
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw transferError(
                code, detail: detail, request: request.summary,
                overflowed: collector.overflowed)
        }
        var status = 0
        reminderd_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        var offered = 0
        reminderd_curl_get_long(curl, CURLINFO_HTTPAUTH_AVAIL, &offered)
        return (HTTPResponse(status: status, headers: collector.headers, body: collector.body), offered)
    }

    private func transferError(_ code: CURLcode, detail: String, request: String, overflowed: Bool) -> DAVError {
        let words = detail.isEmpty ? String(cString: reminderd_curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_WRITE_ERROR where overflowed:
            return .responseTooLarge(request: request, limit: limits.maximumBodyBytes)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(request: request, seconds: limits.totalSeconds)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return .tls(request: request, detail: words)
        default:
            return .network(request: request, detail: words)
        }
    }
}

/// The one libcurl easy handle, kept for its connection cache, and the authentication its server
/// asked for. Only touched inside the transport's mutex.
private struct EasyHandle: ~Copyable {
    let pointer: UnsafeMutableRawPointer
    /// CURLOPT_HTTPAUTH for the next request: Basic until the server has asked for Digest.
    var schemes = AuthScheme.basic

    init() {
        guard let pointer = reminderd_curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.pointer = pointer
    }

    deinit { reminderd_curl_easy_cleanup(pointer) }
}

/// The password is sent as the server asks: Basic (Radicale, Nextcloud) or Digest (sabre/dav as
/// Baïkal runs it by default, which offers nothing else). Allowed only Basic, libcurl sends it with
/// the first request; allowed both, it sends the first without a password and answers the
/// server's challenge with the stronger scheme it names — a round trip more, and nothing at all
/// to a server or proxy that answers a request without a password otherwise than with a
/// challenge. So Basic goes first, as before; a 401 whose challenge offers Digest is asked again
/// with both allowed, and so is every later request to that server (Digest needs a fresh
/// challenge after each `curl_easy_reset` anyway). Not CURLAUTH_ANY's others: NTLM's hashes are
/// weak, and Negotiate would present the user's Kerberos ticket instead of the configured account.
/// Whether the password may go over plain http at all is `SyncSettings.plainHTTPRefusal`'s to
/// say, before any request. (CURLAUTH_* are casts Swift cannot import.)
private enum AuthScheme {
    static let basic = 1 << 0  // CURLAUTH_BASIC
    static let digest = 1 << 1  // CURLAUTH_DIGEST
    static let negotiated = basic | digest
}

/// Gathers one answer's header lines and body as libcurl's callbacks hand them over, on the
/// thread running `curl_easy_perform` (the only one that touches it).
private final class ResponseCollector {
    let limit: Int
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var overflowed = false

    init(limit: Int) { self.limit = limit }

    func appendBody(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        guard body.count + length <= limit else {
            overflowed = true
            return 0  // makes libcurl stop with CURLE_WRITE_ERROR
        }
        if let data, length > 0 { body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
        return length
    }

    func appendHeader(_ data: UnsafeMutablePointer<CChar>?, _ length: Int) -> Int {
        guard let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]  // a new status line (after a 100 Continue): only the final answer's headers count
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop(while: \.isWhitespace)
            headers[name] = String(value.reversed().drop(while: \.isWhitespace).reversed())
        }
        return length
    }
}
