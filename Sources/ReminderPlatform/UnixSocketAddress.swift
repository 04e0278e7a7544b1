#if canImport(Glibc)
    import Glibc
#endif

/// The `sockaddr_un` for a Unix socket's path, as `bind` and `connect` take it: one place
/// that knows `sun_path` holds the path and its NUL, so a longer path is refused, not cut.
public struct UnixSocketAddress {
    private var address = sockaddr_un()
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// Nil when `path` does not fit in `sun_path` (107 bytes and the NUL on Linux).
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    /// `NOTIFY_SOCKET`'s address as sd_notify(3) reads it: a path, or `@name` for the abstract
    /// address `name` (its first byte NUL, and only its own length passed: every byte of it
    /// counts). Nil for anything else, or what does not fit.
    public init?(notifySocket: String) {
        var bytes = Array(notifySocket.utf8)
        switch bytes.first {
        case UInt8(ascii: "/"): self.init(path: notifySocket)
        case UInt8(ascii: "@"):
            var address = sockaddr_un()
            guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else { return nil }
            bytes[0] = 0
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            self.init(address, length: socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count))
        default: return nil
        }
    }

    private init(_ address: sockaddr_un, length: socklen_t) {
        self.address = address
        self.length = length
    }

    /// Calls `body` with the address as a generic `sockaddr` and its length.
    public func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, length)
            }
        }
    }
}
