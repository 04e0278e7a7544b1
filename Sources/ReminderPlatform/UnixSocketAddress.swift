#if canImport(Glibc)
    import Glibc
#endif

/// The `sockaddr_un` for a Unix stream socket's path, as `bind` and `connect` take it: one place
/// that knows `sun_path` holds the path and its NUL, so a longer path is refused, not cut.
public struct UnixSocketAddress {
    private var address = sockaddr_un()

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

    /// Calls `body` with the address as a generic `sockaddr` and its length.
    public func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
