#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon listens: `$REMINDERD_SOCKET`, else the config's `socketPath`, else
/// `$XDG_RUNTIME_DIR/reminderd.sock` (falling back to `/run/user/UID`).
public enum SocketPath {
    public static func resolve(configured: String? = nil) -> String {
        if let override = environment("REMINDERD_SOCKET"), !override.isEmpty { return override }
        if let configured { return configured }
        return runtimeDirectory() + "/reminderd.sock"
    }

    public static func runtimeDirectory() -> String {
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime }
        return "/run/user/\(getuid())"
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
