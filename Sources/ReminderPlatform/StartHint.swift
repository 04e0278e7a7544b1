#if canImport(Glibc)
    import Glibc
#endif

/// How to start reminderd, in the words that fit how this program was installed, so every
/// message that says "start it" says the same thing and names what is really there:
/// - a build in a source checkout (the program under `<checkout>/.build…/`): `scripts/run.sh`
///   in that checkout, whatever else is installed;
/// - the user units are installed (the Debian package's `/usr/lib/systemd/user`, or
///   `scripts/install.sh`'s `~/.config/systemd/user`): `systemctl --user enable --now
///   reminderd.socket` (which enables the service too);
/// - anything else: the `reminderd` beside this program, run in the desktop session.
public enum StartHint {
    public static var reminderd: String {
        hint(executable: currentExecutable(), unitDirectories: unitDirectories())
    }

    /// The rule above for a program at `executable` (a resolved path) and the folders a user
    /// manager reads units from.
    public static func hint(executable: String?, unitDirectories: [String]) -> String {
        let units = "systemctl --user enable --now reminderd.socket"
        guard let executable, let slash = executable.lastIndex(of: "/") else { return units }
        let directory = String(executable[..<slash])
        let components = directory.split(separator: "/", omittingEmptySubsequences: false)
        if let build = components.firstIndex(where: { $0.hasPrefix(".build") }) {
            let checkout = components[..<build].joined(separator: "/")
            if isFile(checkout + "/scripts/run.sh") { return "cd \(checkout) && scripts/run.sh" }
        }
        if unitDirectories.contains(where: { isFile($0 + "/reminderd.socket") }) { return units }
        return "\(directory)/reminderd (in your desktop session)"
    }

    /// Where `systemd --user` finds units a package or the user installed.
    static func unitDirectories() -> [String] {
        [
            xdgDirectory("XDG_CONFIG_HOME", else: ".config") + "/systemd/user", "/etc/systemd/user",
            "/usr/lib/systemd/user", "/usr/local/lib/systemd/user",
        ]
    }

    /// This process's program, symbolic links resolved (`/proc/self/exe`).
    static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
