/// The few single values the daemon keeps beside its items, in the `setting` table.
extension ReminderStore {
    /// Stores the pause as the engine encodes it (see `ReminderEngine.storedPause`); nil resumes.
    public func savePause(_ stored: String?) throws(ReminderStoreError) {
        try write { db in try ReminderStore.setSetting("pausedUntil", stored, db) }
    }

    /// The stored pause, nil when not paused.
    public func savedPause() throws(ReminderStoreError) -> String? { try setting("pausedUntil") }

    /// Up to when every due reminder was shown, held or deliberately skipped (Unix seconds).
    public func saveLastSeen(_ seen: Int64) throws(ReminderStoreError) {
        try write { db in try ReminderStore.setSetting("lastSeen", String(seen), db) }
    }

    public func lastSeen() throws(ReminderStoreError) -> Int64? { try setting("lastSeen").flatMap(Int64.init) }

    /// Stores the reminders being gone through one at a time, as the daemon encodes them
    /// (`DeliveryController.persistTurn`); nil when there are none.
    public func saveTurn(_ stored: String?) throws(ReminderStoreError) {
        try write { db in try ReminderStore.setSetting("turn", stored, db) }
    }

    /// The stored reminders being gone through one at a time, nil when none are.
    public func savedTurn() throws(ReminderStoreError) -> String? { try setting("turn") }

    /// Stores the reminders to show again after a start — those on screen, or to be shown again
    /// on the next server — and the server ids of their pop-ups (`DeliveryController.persistReshow`);
    /// nil when there are none.
    public func saveReshow(_ stored: String?) throws(ReminderStoreError) {
        try write { db in try ReminderStore.setSetting("reshow", stored, db) }
    }

    /// The stored reminders to show again after a start, nil when none are.
    public func savedReshow() throws(ReminderStoreError) -> String? { try setting("reshow") }

    static func setSetting(_ key: String, _ value: String?, _ db: Database) throws {
        if let value {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)").execute(
                arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    /// The setting's value; nil when absent, or when the stored value is not text (it is then
    /// left as it is and reported, as any unreadable row: a start must not fail on one).
    func setting(_ key: String) throws(ReminderStoreError) -> String? {
        try read { db in
            try String.fetchAll(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]).first
        }
    }
}
