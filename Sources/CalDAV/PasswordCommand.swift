import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `sync.passwordCommand` and takes the first line it prints as the password.
///
/// The command is run as `/bin/sh -c COMMAND`, like a line of a shell script: quoting, pipes and
/// `$HOME` work as the user expects (`pass show dav | head -1`). The string comes only from the
/// user's own config file and reminderd never puts anything into it, so the shell adds no
/// injection path. stdin is /dev/null (nothing can wait on a terminal), and a command that runs
/// longer than `timeoutSeconds` is killed.
enum PasswordCommand {
    static let timeoutSeconds = 30

    static func run(_ command: String) throws(PasswordError) -> String {
        let output: ChildOutput
        do {
            output = try ChildOutput.spawn(["/bin/sh", "-c", command], timeoutSeconds: timeoutSeconds)
        } catch {
            throw PasswordError(description: "sync.passwordCommand `\(command)` could not be started (\(error))")
        }
        let errorLine = PasswordLookup.firstLine(Data(output.standardError))
        let said = errorLine.isEmpty ? "" : ": \(errorLine)"
        switch output.ending {
        case .timedOut:
            throw PasswordError(
                description: "sync.passwordCommand `\(command)` ran over \(timeoutSeconds) s and was stopped")
        case .signal(let number):
            throw PasswordError(description: "sync.passwordCommand `\(command)` was killed by signal \(number)\(said)")
        case .exit(let status) where status != 0:
            throw PasswordError(
                description: "sync.passwordCommand `\(command)` failed with exit status \(status)\(said)")
        case .exit:
            let password = PasswordLookup.firstLine(Data(output.standardOutput))
            guard !password.isEmpty else {
                throw PasswordError(description: "sync.passwordCommand `\(command)` printed no password\(said)")
            }
            return password
        }
    }
}

/// A child process's whole output and how it ended, read with poll(2) on this thread: no
/// Foundation `Process` (its monitoring thread and run loop would outlive the call).
struct ChildOutput {
    enum Ending: Equatable {
        case exit(Int32)
        case signal(Int32)
        case timedOut
    }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    var standardOutput: [UInt8] = []
    var standardError: [UInt8] = []
    var ending = Ending.exit(0)

    static func spawn(_ arguments: [String], timeoutSeconds: Int) throws(SpawnError) -> ChildOutput {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw SpawnError(description: String(cString: strerror(errno)))
        }
        // Close-on-exec, so other children (and this one, past its dup2) do not hold the pipes open.
        for descriptor in outPipe + errPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The caller may be a Dispatch worker thread, which blocks every signal: the child starts
        // with none blocked and default handlers, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        defer {
            close(outPipe[0])
            close(errPipe[0])
        }
        guard spawned == 0 else { throw SpawnError(description: String(cString: strerror(spawned))) }

        var output = ChildOutput()
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        var open = [outPipe[0], errPipe[0]]
        while !open.isEmpty {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), remaining)
            if ready == 0 {
                kill(pid, SIGKILL)
                output.ending = .timedOut
                break
            }
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for descriptor in fds where descriptor.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor.fd, &buffer, buffer.count)
                if count > 0 {
                    if descriptor.fd == outPipe[0] {
                        output.standardOutput += buffer[0..<count]
                    } else {
                        output.standardError += buffer[0..<count]
                    }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == descriptor.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if output.ending != .timedOut {
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot see.
            let signal = status & 0x7f
            output.ending = signal == 0 ? .exit((status >> 8) & 0xff) : .signal(signal)
        }
        return output
    }
}
