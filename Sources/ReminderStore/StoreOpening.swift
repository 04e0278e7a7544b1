internal import CSQLite
#if canImport(Glibc)
    import Glibc
#endif

extension ReminderStore {
    /// How long opening waits for another process's lock on the file before giving up.
    static let lockWait: Double = 10

    /// How long a write waits for another process's lock inside `failingFastWhenLocked`: a
    /// moment, so the daemon's queue is not held; the caller retries later (`LockedCalls`).
    static let shortLockWait: Double = 0.005

    /// SQLite failed because another connection holds the lock.
    static func isLockedOut(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == SQLITE_BUSY || error.resultCode == SQLITE_LOCKED
    }

    /// Refuses a file this build must not touch: one with tables but none of reminderd's schema
    /// (another program's database at the store's path — migrating it would wreck it), or one
    /// that a newer reminderd migrated (this build would write rows the newer one misreads).
    static func refuseForeignOrNewer(_ db: Database) throws {
        let applied = try migrator.appliedIdentifiers(db)
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        let others = tables.filter { $0 != "grdb_migrations" }
        if applied.isEmpty, !others.isEmpty {
            throw ReminderStoreError.foreign(tables: others.count > 5 ? others.prefix(5) + ["…"] : others)
        }
        if try migrator.hasBeenSuperseded(db) {
            let known = Set(migrator.migrations)
            throw ReminderStoreError.newer(unknownSteps: applied.filter { !known.contains($0) }.sorted())
        }
    }

    /// Why opening failed, in words: a full disk is named as such (SQLite often says only
    /// "disk I/O error" when it cannot grow its shared-memory file), a lock held too long too.
    static func describeOpenFailure(_ error: any Error, path: String) -> String {
        if let full = diskFull(at: path) { return "\(full) (\(error))" }
        if let error = error as? DatabaseError, error.resultCode == SQLITE_BUSY || error.resultCode == SQLITE_LOCKED {
            return "another process holds a lock on it (waited \(Int(lockWait)) s): \(error)"
        }
        return "\(error)"
    }

    /// "no space left on device (ENOSPC) in DIR" when the file system holding `path` has no room
    /// for a page more; nil otherwise.
    public static func diskFull(at path: String) -> String? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var stats = statvfs()
        guard statvfs(directory.isEmpty ? "/" : directory, &stats) == 0 else { return nil }
        guard UInt64(stats.f_bavail) * UInt64(stats.f_bsize) < 64 * 1024 else { return nil }
        return "no space left on device (ENOSPC) in \(directory)"
    }
}
