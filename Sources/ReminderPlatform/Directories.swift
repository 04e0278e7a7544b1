#if canImport(Glibc)
    import Glibc
#endif

/// `mkdir -p` for private directories: creates each missing component of `path` with mode 0700
/// (existing ones are left as they are). Throws the component that failed and why.
public func makePrivateDirectories(_ path: String) throws(ReminderPlatformError) {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        current += "/" + component
        if mkdir(current, 0o700) != 0 && errno != EEXIST {
            throw .unreadableFile(path: current, reason: "cannot create: \(errnoDescription())")
        }
    }
}
