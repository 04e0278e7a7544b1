import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Where the daemon listens: `$REMINDERD_SOCKET`, else the config's `socketPath`, else
/// `$XDG_RUNTIME_DIR/reminderd.sock` (falling back to `/run/user/UID`).
public enum SocketPath {
    public static func resolve(configured: String? = nil) -> String {
        if let override = environmentVariable("REMINDERD_SOCKET"), !override.isEmpty { return override }
        if let configured { return configured }
        return runtimeDirectory() + "/reminderd.sock"
    }

    public static func runtimeDirectory() -> String {
        if let runtime = environmentVariable("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime }
        return "/run/user/\(getuid())"
    }
}
