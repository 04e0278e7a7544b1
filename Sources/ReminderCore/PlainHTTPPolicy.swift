#if canImport(Glibc)
    import Glibc
#endif

/// Whether an account's password crosses the network in clear. reminderd-sync sends it with
/// Basic auth to a server that asks for Basic — and over http anyone on the path can pose as one —
/// so an `http://` address on another machine gives it to anyone on the path, Digest server or
/// not; that is refused unless `allowPlainHttp` says the user knows. Loopback hosts stay
/// allowed: nothing leaves the machine (a local Radicale, the tests' servers).
extension SyncSettings {
    /// The host the password goes to in clear over http, nil when it does not (https, loopback).
    public var clearTextHost: String? { Self.clearTextHost(of: url) }

    /// What `reminderctl sync setup` and `reminderd-sync` refuse: an address sending the password
    /// in clear that `allowPlainHttp` did not accept; nil when there is nothing to refuse.
    public var plainHTTPRefusal: String? {
        guard !allowPlainHTTP, let host = clearTextHost else { return nil }
        return Self.plainHTTPRefusal(url: url, host: host, option: "\"allowPlainHttp\": true in the \"sync\" section")
    }

    /// The refusal's words, naming the address and `option`, the way to accept it.
    public static func plainHTTPRefusal(url: String, host: String, option: String) -> String {
        "\(shownURL(url)) is plain http: the password would go in clear to \(host) on every request; "
            + "use https://, or accept that with \(option)"
    }

    /// The warning while it is accepted: setup, `sync status` and reminderd-sync's log at start.
    public static func clearTextWarning(host: String) -> String {
        "the password goes in clear over http to \(host) (sync.allowPlainHttp); use https:// to protect it"
    }

    /// The host of an `http://` address whose host is not loopback, lowercased; nil otherwise
    /// (https, loopback, or not an address at all — that is `urlProblem`'s to say).
    public static func clearTextHost(of url: String) -> String? {
        let scheme = "http://"
        guard url.lowercased().hasPrefix(scheme) else { return nil }
        let authority = url.dropFirst(scheme.count).prefix { !"/?#".contains($0) }
        let afterUser = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        guard let host = host(ofAuthority: afterUser), !host.isEmpty else { return nil }
        let name = host.lowercased()
        return isLoopback(name) ? nil : name
    }

    /// `localhost`, 127.0.0.0/8 as a dotted quad, `[::1]` (also written out, or IPv4-mapped
    /// `[::ffff:127.x.y.z]`). Anything else — another name, a shorthand like `127.1`, an
    /// escaped host — counts as another machine: refusing wrongly costs a flag, allowing
    /// wrongly costs a password.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" { return true }
        if name.hasPrefix("["), name.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1 else { return false }
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            if bytes[..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            return bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }
        var address = in_addr()
        guard inet_pton(AF_INET, name, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { $0[0] } == 127
    }
}
