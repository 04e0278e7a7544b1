/// The `io.reminderd.Reminders` varlink interface: its name, its description in varlink's
/// interface language (served by `org.varlink.service.GetInterfaceDescription`, which stock
/// clients such as Python's `varlink` read to build their proxies), and its error names.
public enum ReminderInterface {
    public static let name = "io.reminderd.Reminders"

    /// Items travel as objects in the §2 JSON format; replies describing items add `status`,
    /// `daysLeft`, `nextReminder`, `due`, and `currency` when the item has none (the config's).
    /// Each method's parameter list is written from its declaration (`parameters(_:)`), so what a
    /// client is told a method takes is what the daemon reads.
    public static let description = """
        # reminderd: reminders of money-relevant deadlines (card benefits, subscriptions,
        # coupons, annual fees, rebuys). Items are objects in the format of section 2 of
        # docs/CONTRACT.md.
        interface io.reminderd.Reminders

        # Adds an item; the daemon assigns its id and createdAt. One of the same kind and title on
        # the same card as an item tracked already is refused (Duplicate) unless force is true; a
        # card named a few letters from one tracked already (NearCard) unless newCard is true.
        method Add(\(parameters(.add))) -> (id: string, item: object)

        # Items with their status: available, expiring, used, expired or overdue.
        method List(\(parameters(.list))) -> (items: []object)

        # One item, by id or unique id prefix, or by its title or the unique start of one (case
        # and accents aside); the same for every id parameter below.
        method Get(\(parameters(.get))) -> (item: object)

        # Changes the given fields of an item; reminders are rescheduled at once. A card a typo
        # away from another item's is refused (NearCard) unless newCard is true.
        method Edit(\(parameters(.edit))) -> (item: object)

        # Deletes an item; item is what it was (null for one whose stored data was unreadable).
        method Remove(\(parameters(.remove))) -> (id: string, item: ?object)

        # Marks the current occurrence done (used, rebought, acknowledged). When it is done
        # already, NotApplicable and nothing changes; early: true acknowledges the next one.
        # On a subscription's free trial Done keeps it; cancelled: true ends it instead.
        method Done(\(parameters(.done))) -> (item: object)

        # Restores the item as it was before its latest Done; repeated, before each earlier one.
        method Undo(\(parameters(.undo))) -> (item: object)

        # The next reminder of the current occurrence fires after duration (1h, 1d, 1w), or at
        # until (18:00: the next 18:00 in the daemon's zone; tomorrow: tomorrow at reminderTime),
        # one of the two; one that would end at or after the due time ends a minute before it,
        # one in quiet hours at their end, and shortened says why (also: 18:00 meant tomorrow).
        method Snooze(\(parameters(.snooze))) -> (until: string, shortened: ?string)

        # Pending reminders in time order.
        method Upcoming(\(parameters(.upcoming))) -> (reminders: []object)

        # How each upcoming fire time of an item was derived.
        method Explain(\(parameters(.explain))) -> (steps: []object)

        # What happened, newest first; since is a date or RFC 3339 time, item an id or prefix.
        method History(\(parameters(.history))) -> (entries: []object)

        method Summary(\(parameters(.summary))) -> (summary: object)

        # The status object includes today, the date in the daemon's time zone.
        method Status(\(parameters(.status))) -> (status: object)

        # Holds pop-ups (do not disturb), for duration or until Resume.
        method Pause(\(parameters(.pause))) -> (until: ?string)

        method Resume(\(parameters(.resume))) -> ()

        # Re-reads the config file; a bad one is refused and the old one kept.
        method Reload(\(parameters(.reload))) -> ()

        # Adds items, all or none, with a backup's state (occurrences, redemptions, undo,
        # history) in the same transaction; replace: true restores over items of the same ids.
        method Import(\(parameters(.importItems))) -> (ids: []string)

        # Every item, and their state for a backup; history: true adds the history.
        method Export(\(parameters(.export))) -> (items: []object, state: object)

        # The items as RFC 5545 iCalendar for the next days (default 365, at most 3660), with
        # the alarms where the daemon, in its zone and with its settings, reminds.
        method Calendar(\(parameters(.calendar))) -> (ics: string)

        # Value over the last months (default 12, at most 120) ending with this one: redeemed per
        # month per card (counted in the month of the Done), each card's year against its fee,
        # subscriptions' cost, and what expired unused; card keeps one card (its name or start).
        method Report(\(parameters(.report))) -> (report: object)

        # Shows a sample reminder's pop-up now, whatever the hour, quiet hours or pause, as
        # notify-send would; its buttons say what they would do and change nothing. NotApplicable
        # when no notification server is on the session bus.
        method ShowSample(\(parameters(.showSample))) -> (summary: string, body: string, buttons: []string)

        # The methods below are reminderd-sync's, the process that syncs the items with a CalDAV
        # task list (not for people; see docs/SYNC.md).

        # Starts a sync pass with collection (the task list's URL) of account (user@host). A
        # collection other than the last one starts over: every item is pushed again. Returns
        # the sync token stored after the last pull, and the resources known then.
        method SyncBegin(\(parameters(.syncBegin))) -> (token: ?string, resources: []object)

        # Resources new or changed on the server (href, etag, body) and removed (hrefs); each is
        # merged with the local item, and token is stored once all are applied. skipped names
        # each resource not applied (href, reason): not readable, or its UID twice in the batch.
        method SyncPulled(\(parameters(.syncPulled)))
            -> (applied: int, conflicts: int, skipped: []object)

        # The local changes to push, oldest first: uid, href, etag (null: create), body (null:
        # delete) and seq, which SyncPushed gives back.
        method SyncPending(\(parameters(.syncPending))) -> (changes: []object)

        # The server took change seq of uid: its new etag (null when it gave none) and the body
        # it holds (null: deleted).
        method SyncPushed(\(parameters(.syncPushed))) -> ()

        # A pass ended: error is null when it succeeded, else why not, in words.
        method SyncReport(\(parameters(.syncReport))) -> ()

        # Sync's state: account, last sync, changes waiting, conflicts, the last error.
        method SyncStatus(\(parameters(.syncStatus))) -> (sync: object)

        # Answers when reminderd-sync has work: reason "changed" (a local change, 2 s after),
        # "now" (SyncNow), or "refresh" with the uids of items a pop-up is about to show.
        method SyncWait(\(parameters(.syncWait))) -> (reason: string, uids: []string)

        # Asks the connected reminderd-sync for a pass and answers when it ends; SyncFailed
        # says why it did not succeed, or that no reminderd-sync is running.
        method SyncNow(\(parameters(.syncNow))) -> ()

        # reasonTemplate (where an error has it): the reason as its catalog template, for the
        # client to write in its own language: format, arguments (strings, or templates in
        # turn), and plural with count for a plural; absent where the reason is not translated.
        error InvalidItem (field: string, reason: string)
        error InvalidParameter (parameter: string, reason: string, reasonTemplate: ?object)
        error InvalidConfig (field: string, reason: string)
        error NoSuchItem (id: string)
        error AmbiguousId (prefix: string, matches: []string)
        # More than one item's title is or starts with name: each one's id, title, kind, card, due.
        error AmbiguousName (name: string, candidates: []object)
        # The item is tracked already: why, and the items that track it (id, title, kind, card, due).
        error Duplicate (reason: string, existing: []object, reasonTemplate: ?object)
        # No tracked item has this card, but some are on cards spelt nearly so: their names.
        error NearCard (card: string, known: []string)
        error NothingToUndo (id: string)
        error NotApplicable (id: string, reason: string, reasonTemplate: ?object)
        error Internal (reason: string)
        # The change was applied and kept, but the disk did not confirm it: do not retry blindly.
        error NotDurable (reason: string)
        error RequestTooLarge (limit: int, reason: string)
        error SyncFailed (reason: string, reasonTemplate: ?object)

        """

    /// `id: string, amount: ?string`: the parameter list of `method`, from its declaration.
    private static func parameters(_ method: ReminderMethod) -> String { method.declaration.signature }

    public enum ErrorName {
        public static let invalidItem = "io.reminderd.Reminders.InvalidItem"
        public static let invalidParameter = "io.reminderd.Reminders.InvalidParameter"
        public static let invalidConfig = "io.reminderd.Reminders.InvalidConfig"
        public static let noSuchItem = "io.reminderd.Reminders.NoSuchItem"
        public static let ambiguousId = "io.reminderd.Reminders.AmbiguousId"
        public static let ambiguousName = "io.reminderd.Reminders.AmbiguousName"
        public static let duplicate = "io.reminderd.Reminders.Duplicate"
        public static let nearCard = "io.reminderd.Reminders.NearCard"
        public static let nothingToUndo = "io.reminderd.Reminders.NothingToUndo"
        public static let notApplicable = "io.reminderd.Reminders.NotApplicable"
        public static let `internal` = "io.reminderd.Reminders.Internal"
        public static let notDurable = "io.reminderd.Reminders.NotDurable"
        public static let requestTooLarge = "io.reminderd.Reminders.RequestTooLarge"
        public static let syncFailed = "io.reminderd.Reminders.SyncFailed"
    }

    /// The standard service interface every varlink server offers.
    public enum Service {
        public static let name = "org.varlink.service"
        public static let description = """
            # The Varlink Service Interface is provided by every varlink service. It
            # describes the service and the interfaces it implements.
            interface org.varlink.service

            # Get a list of all the interfaces a service provides and information
            # about the implementation.
            method GetInfo() -> (
              vendor: string,
              product: string,
              version: string,
              url: string,
              interfaces: []string
            )

            # Get the description of an interface that is implemented by this service.
            method GetInterfaceDescription(interface: string) -> (description: string)

            # The requested interface was not found.
            error InterfaceNotFound (interface: string)

            # The requested method was not found
            error MethodNotFound (method: string)

            # The interface defines the requested method, but the service does not
            # implement it.
            error MethodNotImplemented (method: string)

            # One of the passed parameters is invalid.
            error InvalidParameter (parameter: string)

            # Client is denied access
            error PermissionDenied ()

            # Method is expected to be called with 'more' set to true, but wasn't
            error ExpectedMore ()

            """
        public static let interfaceNotFound = "org.varlink.service.InterfaceNotFound"
        public static let methodNotFound = "org.varlink.service.MethodNotFound"
        public static let invalidParameter = "org.varlink.service.InvalidParameter"
        public static let permissionDenied = "org.varlink.service.PermissionDenied"
    }
}
