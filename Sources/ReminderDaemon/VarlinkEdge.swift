import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderProtocol

/// The varlink edge of the engine, the one place that speaks `io.reminderd.Reminders`: a call's
/// `ReminderRequest` becomes a typed engine call, its typed reply becomes the reply's parameters,
/// and an `EngineError` becomes the interface's error (names in `ReminderInterface.ErrorName`).
/// The engine's commands know nothing of JSON replies or varlink errors, so a pop-up's button
/// calls the very same functions (`ReminderEngine+DeliveryCore.swift`).
extension ReminderEngine {
    /// Runs one `io.reminderd.Reminders` method on `queue` and returns its reply; nil when it
    /// parked the call on `caller`, to answer later (`SyncWait`, `SyncNow`: `ParkedCall`), or put
    /// it aside because another program holds the store's lock (`LockedCalls`).
    public func perform(_ method: ReminderMethod, _ parameters: [String: JSONValue], caller: any CallParking)
        -> VarlinkReply?
    {
        dispatchPrecondition(condition: .onQueue(queue))
        if lockedCalls.mustWait(method, connection: caller.connectionID) {
            putAside(method, parameters, caller: caller)
            return nil
        }
        switch store.failingFastWhenLocked({ attempt(method, parameters, caller: caller) }) {
        case .done(let reply): return reply
        case .locked:
            putAside(method, parameters, caller: caller)
            return nil
        }
    }

    /// What one try at a call came to: its reply (nil: the method parked it), or the store's
    /// lock held by another program, with nothing changed.
    enum Attempt {
        case done(VarlinkReply?)
        case locked(EngineError)
    }

    /// Runs the call once; a write the store's lock refused is `.locked`, not a reply.
    func attempt(_ method: ReminderMethod, _ parameters: [String: JSONValue], caller: any CallParking) -> Attempt {
        let now = clock()
        let request: ReminderRequest
        do throws(VarlinkError) { request = try ReminderRequest(method, parameters) } catch {
            return .done(.failure(error))
        }
        let reply: VarlinkReply
        do throws(EngineError) {
            if let writer = try streamed(request, now: now) {
                reply = .streamed(writer)
            } else {
                guard let answered = try answer(request, caller: caller, now: now) else { return .done(nil) }
                reply = .success(answered.parameters)
            }
        } catch {
            if case .store(.locked) = error { return .locked(error) }
            return .done(.failure(varlinkError(error, now: now)))
        }
        if method.changesItems { sync.noteLocalChange(now: now) }
        // Queries change nothing the timer or systemd's status line depend on.
        if !method.isQuery { publish() }
        return .done(reply)
    }

    /// The replies of thousands of items, `List` and `Export`, written item by item as they go
    /// out (`StreamedReplies.swift`) from what they read now; nil for the other calls. Their
    /// refusals are made here, before anything is written.
    private func streamed(_ request: ReminderRequest, now: Int64) throws(EngineError) -> (any VarlinkReplyWriter)? {
        switch request {
        case .list(let call):
            try QuerySnapshot.checkKind(call.kind)
            return ListWriter(snapshot: queries(now: now), kind: call.kind, all: call.all)
        case .export(let call):
            return ExportWriter(
                index: index, state: try Backup(zone: zone).exportState(index, from: store, history: call.history))
        default: return nil
        }
    }

    /// The engine call `request` means, and its typed reply; nil when the call was parked.
    private func answer(_ request: ReminderRequest, caller: any CallParking, now: Int64) throws(EngineError)
        -> (any ReminderReply)?
    {
        switch request {
        case .add(let call): return try add(call.item, force: call.force, newCard: call.newCard, now: now)
        case .list(let call): return ListReply(items: try queries(now: now).list(kind: call.kind, all: call.all))
        case .get(let call):
            return ItemReply(item: queries(now: now).view(try index.resolve(call.id, quarantinedToo: true)))
        case .edit(let call):
            return try edit(index.resolve(call.id), changes: call.changes, newCard: call.newCard, now: now)
        case .remove(let call): return try remove(index.resolve(call.id, quarantinedToo: true), now: now)
        case .done(let call):
            let id = try index.resolve(call.id)
            try markDone(id, amount: call.amount, early: call.early, cancelled: call.cancelled, now: now)
            return ItemReply(item: queries(now: now).view(id))
        case .undo(let call):
            let id = try index.resolve(call.id)
            try undo(id, now: now)
            return ItemReply(item: queries(now: now).view(id))
        case .snooze(let call):
            let (id, durationText, untilText) = (try index.resolve(call.id), call.duration, call.until)
            if let untilText {
                guard durationText == nil else {
                    throw EngineError.invalidParameter(
                        "until", Wording(N_("give a duration or a time to snooze until, not both")))
                }
                guard let target = SnoozeTarget.parse(untilText) else {
                    throw EngineError.invalidParameter(
                        "until", Wording(N_("\"%1$s\" is not a time like 18:00 or tomorrow"), .text(untilText)))
                }
                return try snooze(id, target, now: now)
            }
            guard let durationText else {
                throw EngineError.invalidParameter(
                    "duration", Wording(N_("give a duration like 1h or a time to snooze until")))
            }
            guard case .success(let duration) = CalendarDuration.parse(durationText, rules: .snooze) else {
                throw EngineError.invalidParameter(
                    "duration", Wording(N_("\"%1$s\" is not a snooze like 1h, 1d or 1w"), .text(durationText)))
            }
            return try snooze(id, duration, now: now)
        case .upcoming(let call): return UpcomingReply(reminders: queries(now: now).upcoming(days: call.days))
        case .explain(let call): return queries(now: now).explain(try index.resolve(call.id))
        case .history(let call):
            return HistoryReply(
                entries: try queries(now: now).history(limit: call.limit, since: call.since, item: call.item))
        case .summary: return try queries(now: now).summary()
        case .status: return status(now: now)
        case .pause(let call):
            var duration: CalendarDuration?
            if let durationText = call.duration {
                guard case .success(let parsed) = CalendarDuration.parse(durationText, rules: .snooze) else {
                    throw EngineError.invalidParameter(
                        "duration", Wording(N_("\"%1$s\" is not a duration like 2h or 1d"), .text(durationText)))
                }
                duration = parsed
            }
            return try pause(duration, now: now)
        case .resume:
            try resumeCommand(now: now)
            return EmptyReply()
        case .reload:
            // The daemon answers it: it owns the config file (Daemon.reload).
            throw EngineError.internal("Reload is answered by the daemon, not the engine")
        case .importItems(let call):
            return try importItems(call.items, state: call.state, replace: call.replace, now: now)
        case .export(let call):
            return try Backup(zone: zone).export(index, from: store, history: call.history)
        case .calendar(let call): return CalendarReply(ics: try queries(now: now).calendar(days: call.days))
        case .report(let call): return try queries(now: now).report(months: call.months, card: call.card)
        case .showSample:
            delivery.showSample(caller: caller, now: now)
            return nil
        case .syncBegin(let call):
            return try sync.begin(collection: call.collection, account: call.account, caller: caller, now: now)
        case .syncPulled(let call):
            return try sync.applyPull(call.resources, removed: call.removed, token: call.token, now: now)
        case .syncPending(let call): return SyncPendingReply(changes: try sync.pending(limit: call.limit, now: now))
        case .syncPushed(let call):
            try sync.pushed(uid: call.uid, seq: call.seq, href: call.href, etag: call.etag, body: call.body, now: now)
            return EmptyReply()
        case .syncReport(let call):
            try sync.report(error: call.error, now: now)
            return EmptyReply()
        case .syncStatus: return try sync.syncStatus(now: now)
        case .syncWait: return sync.syncWait(caller: caller, now: now)
        case .syncNow:
            try sync.syncNow(caller: caller, now: now)
            return nil
        }
    }
}

extension ReminderEngine {
    /// `error` as the client receives it; an ambiguous name lists each candidate's title, kind,
    /// card and due date, so that a person can tell them apart without another command.
    func varlinkError(_ error: EngineError, now: Int64) -> VarlinkError {
        func described(_ ids: [String]) -> JSONValue {
            let snapshot = queries(now: now)
            return .array(
                ids.map { id in
                    let view = snapshot.view(id)
                    var fields: [String: JSONValue] = [
                        "id": .string(view.id), "title": .string(view.title), "kind": .string(view.kindName),
                    ]
                    fields["card"] = view.card?.wire
                    fields["due"] = view.due?.wire
                    return .object(fields)
                })
        }
        switch error {
        case .ambiguousName(let name, let matches):
            return VarlinkError(
                name: ReminderInterface.ErrorName.ambiguousName,
                parameters: ["name": .string(name), "candidates": described(matches)])
        case .duplicate(let reason, let matches):
            return VarlinkError(
                name: ReminderInterface.ErrorName.duplicate,
                parameters: VarlinkError.reasonParameters(reason, ["existing": described(matches)]))
        default: return error.varlinkError
        }
    }
}

extension EngineError {
    /// The `io.reminderd.Reminders` error a client receives for this refusal.
    var varlinkError: VarlinkError {
        switch self {
        case .invalidItem(let error):
            return VarlinkError(
                name: ReminderInterface.ErrorName.invalidItem,
                parameters: ["field": .string(error.field), "reason": .string(error.reason)])
        case .invalidParameter(let parameter, let reason):
            return VarlinkError(
                name: ReminderInterface.ErrorName.invalidParameter,
                parameters: VarlinkError.reasonParameters(reason, ["parameter": .string(parameter)]))
        case .notApplicable(let id, let reason):
            return VarlinkError(
                name: ReminderInterface.ErrorName.notApplicable,
                parameters: VarlinkError.reasonParameters(reason, ["id": .string(id)]))
        case .noSuchItem(let id):
            return VarlinkError(name: ReminderInterface.ErrorName.noSuchItem, parameters: ["id": .string(id)])
        case .ambiguousId(let prefix, let matches):
            return VarlinkError(
                name: ReminderInterface.ErrorName.ambiguousId,
                parameters: ["prefix": .string(prefix), "matches": .array(matches.map { .string($0) })])
        case .ambiguousName(let name, let matches):
            return VarlinkError(
                name: ReminderInterface.ErrorName.ambiguousName,
                parameters: [
                    "name": .string(name), "candidates": .array(matches.map { .object(["id": .string($0)]) }),
                ])
        case .duplicate(let reason, let matches):
            return VarlinkError(
                name: ReminderInterface.ErrorName.duplicate,
                parameters: VarlinkError.reasonParameters(
                    reason, ["existing": .array(matches.map { .object(["id": .string($0)]) })]))
        case .nearCard(let card, let known):
            return VarlinkError(
                name: ReminderInterface.ErrorName.nearCard,
                parameters: ["card": .string(card), "known": .array(known.map { .string($0) })])
        case .nothingToUndo(let id):
            return VarlinkError(name: ReminderInterface.ErrorName.nothingToUndo, parameters: ["id": .string(id)])
        case .syncFailed(let reason):
            return VarlinkError(
                name: ReminderInterface.ErrorName.syncFailed, parameters: VarlinkError.reasonParameters(reason))
        case .store(let error):
            return VarlinkError(
                name: ReminderInterface.ErrorName.internal, parameters: ["reason": .string(error.description)])
        case .internal(let reason):
            return VarlinkError(name: ReminderInterface.ErrorName.internal, parameters: ["reason": .string(reason)])
        }
    }
}

extension ParkedCall {
    /// Answers a parked call with an engine result, as varlink: the reply's parameters, or the
    /// refusal's error.
    func answer(_ result: Result<any ReminderReply, EngineError>) {
        switch result {
        case .success(let reply): answer(.success(reply.parameters))
        case .failure(let error): answer(.failure(error.varlinkError))
        }
    }
}
