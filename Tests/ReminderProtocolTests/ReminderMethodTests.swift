import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@Suite struct ReminderMethodTests {
    /// Each `method Name(a: type, b: ?type) -> (…)` line of the interface description, as its
    /// name and parameter names.
    static func describedMethods() -> [String: Set<String>] {
        var methods: [String: Set<String>] = [:]
        for line in ReminderInterface.description.split(separator: "\n") where line.hasPrefix("method ") {
            let signature = line.dropFirst("method ".count)
            guard let open = signature.firstIndex(of: "("), let close = signature.firstIndex(of: ")") else {
                Issue.record("unreadable line: \(line)")
                continue
            }
            let parameters = signature[signature.index(after: open)..<close].split(separator: ",").compactMap {
                $0.split(separator: ":").first.map { String($0.trimmingPrefix(" ")) }
            }
            methods[String(signature[..<open])] = Set(parameters)
        }
        return methods
    }

    @Test func theEnumHasExactlyTheDescribedMethodsWithTheirParameters() {
        let described = Self.describedMethods()
        #expect(described.count == 29)
        #expect(Set(described.keys) == Set(ReminderMethod.allCases.map(\.rawValue)))
        for method in ReminderMethod.allCases {
            #expect(described[method.rawValue] == method.parameterNames, "\(method.rawValue)")
        }
    }

    /// The description's parameter lists are written from the declarations; these are the lines
    /// clients were given before they were, so the interface is unchanged.
    @Test func theDescriptionListsEachMethodsDeclaredParametersWithTheirTypes() {
        let lines = Set(ReminderInterface.description.split(separator: "\n").map { $0.trimmingPrefix(" ") })
        for line in [
            "method Add(item: object, force: ?bool, newCard: ?bool) -> (id: string, item: object)",
            "method List(kind: ?string, all: ?bool) -> (items: []object)",
            "method Done(id: string, amount: ?string, early: ?bool, cancelled: ?bool) -> (item: object)",
            "method History(limit: ?int, since: ?string, item: ?string) -> (entries: []object)",
            "method Import(items: []object, state: ?object, replace: ?bool) -> (ids: []string)",
            "method Status() -> (status: object)",
            "method SyncPulled(resources: []object, removed: []string, token: ?string)",
            "method SyncPushed(uid: string, seq: int, href: string, etag: ?string, body: ?string) -> ()",
        ] {
            #expect(lines.contains(Substring(line)), "\(line)")
        }
    }

    /// Sync is told after a method that changes items; a query never does, and sync's own methods
    /// apply the server's changes, which are not pushed back.
    @Test func aMethodThatChangesItemsIsNoQueryAndNotSyncsOwn() {
        for method in ReminderMethod.allCases where method.changesItems {
            #expect(!method.isQuery, "\(method.rawValue)")
            #expect(!method.rawValue.hasPrefix("Sync"), "\(method.rawValue)")
        }
        #expect(ReminderMethod.done.changesItems && ReminderMethod.importItems.changesItems)
        #expect(!ReminderMethod.pause.changesItems && !ReminderMethod.syncPulled.changesItems)
    }

    @Test func qualifiedNamesRoundTripAndOtherInterfacesAreNotMethods() {
        for method in ReminderMethod.allCases {
            #expect(ReminderMethod(qualifiedName: method.qualifiedName) == method)
        }
        #expect(ReminderMethod(qualifiedName: "org.varlink.service.List") == nil)
        #expect(ReminderMethod(qualifiedName: "io.reminderd.Reminders.Nope") == nil)
    }

    @Test func onlyReadingMethodsAreQueries() {
        let queries = Set(ReminderMethod.allCases.filter(\.isQuery).map(\.rawValue))
        #expect(
            queries == [
                "List", "Get", "Upcoming", "Explain", "History", "Summary", "Status", "Export", "Calendar",
                "Report", "ShowSample", "SyncPending", "SyncStatus", "SyncWait", "SyncNow",
            ])
    }
}

@Suite struct ReminderRequestTests {
    func refusal(_ method: ReminderMethod, _ parameters: [String: JSONValue]) -> VarlinkError? {
        do throws(VarlinkError) {
            _ = try ReminderRequest(method, parameters)
            return nil
        } catch { return error }
    }

    @Test func parametersAreReadInTheirTypesWithTheirDefaults() throws {
        #expect(try ReminderRequest(.list, [:]) == .list(.init(kind: nil, all: false)))
        #expect(try ReminderRequest(.upcoming, ["days": .null]) == .upcoming(.init(days: 7)))
        #expect(
            try ReminderRequest(.history, ["since": .string("2026-01-01")])
                == .history(.init(limit: 50, since: "2026-01-01", item: nil)))
        #expect(
            try ReminderRequest(.done, ["id": .string("ab"), "early": .bool(true)])
                == .done(.init(id: "ab", early: true)))
        #expect(
            try ReminderRequest(.importItems, ["items": .array([])])
                == .importItems(.init(items: [], state: nil, replace: false)))
        let needNothing: [ReminderMethod] = [
            .list, .upcoming, .history, .summary, .status, .pause, .resume, .reload, .export,
        ]
        for method in needNothing { #expect(try ReminderRequest(method, [:]).method == method) }
    }

    /// What a client writes (`parameters`) the daemon reads back as the same call, for every
    /// method, with optional values given and left out.
    @Test func everyRequestReadsBackWhatItWrites() throws {
        let item = JSONValue.object(["kind": .string("coupon"), "title": .string("Deal")])
        let requests: [ReminderRequest] = [
            .add(.init(item: item)), .list(.init(kind: "fee", all: true)), .list(.init()), .get(.init(id: "ab")),
            .edit(.init(id: "ab", changes: .object(["title": .string("New")]))), .remove(.init(id: "ab")),
            .done(.init(id: "ab", amount: Money(tenThousandths: 75_000), early: true)), .done(.init(id: "ab")),
            .done(.init(id: "ab", cancelled: true)), .undo(.init(id: "ab")),
            .snooze(.init(id: "ab", duration: "1h")), .upcoming(.init(days: 30)), .explain(.init(id: "ab")),
            .history(.init(limit: 20, since: "2026-11-01", item: "ab")), .history(.init()), .summary,
            .status, .pause(.init(duration: "2h")), .pause(.init(duration: nil)), .resume, .reload,
            .importItems(.init(items: [item], state: .object([:]), replace: true)), .importItems(.init(items: [])),
            .export(.init(history: true)), .calendar(.init(days: 365)), .report(.init()),
            .report(.init(months: 3, card: "amex")), .showSample,
            .syncBegin(.init(collection: "https://dav.example.org/alice/reminderd/", account: "alice@dav.example.org")),
            .syncPulled(
                .init(
                    resources: [SyncResource(href: "/a/b.ics", etag: "\"1\"", body: "BEGIN:VCALENDAR")],
                    removed: ["/a/c.ics"], token: "t1")),
            .syncPulled(.init(resources: [SyncResource(href: "/a/b.ics", etag: nil, body: "")], removed: [], token: nil)),
            .syncPending(.init(limit: 10)),
            .syncPushed(.init(uid: "u@reminderd", seq: 3, href: "/a/u.ics", etag: "\"2\"", body: "x")),
            .syncPushed(.init(uid: "u@reminderd", seq: 4, href: "/a/u.ics", etag: nil, body: nil)),
            .syncReport(.init(error: nil)), .syncReport(.init(error: "the server answered 503")), .syncStatus,
            .syncWait, .syncNow,
        ]
        #expect(Set(requests.map(\.method)) == Set(ReminderMethod.allCases))
        for request in requests {
            #expect(try ReminderRequest(request.method, request.parameters) == request)
        }
        // A flag is written only when true and nil is left out, so a call reaches a daemon older
        // than a parameter it does not use.
        #expect(ReminderRequest.done(.init(id: "ab")).parameters.keys.sorted() == ["id"])
        #expect(
            ReminderRequest.done(.init(id: "ab", amount: Money(tenThousandths: 75_000))).parameters["amount"]
                == .string("7.50"))
    }

    /// Done's amount is read as a typed amount where the call is read: a positive decimal as
    /// text, refused naming the parameter otherwise.
    @Test func doneCarriesATypedAmountCheckedWhereItIsRead() throws {
        #expect(
            try ReminderRequest(.done, ["id": .string("ab"), "amount": .string("7.50")])
                == .done(.init(id: "ab", amount: Money(tenThousandths: 75_000))))
        #expect(
            refusal(.done, ["id": .string("ab"), "amount": .string("7,50")])
                == .invalidParameter("amount", "\"7,50\" is not a positive decimal amount"))
        #expect(
            refusal(.done, ["id": .string("ab"), "amount": .string("0")])
                == .invalidParameter("amount", "\"0\" is not a positive decimal amount"))
        #expect(
            refusal(.done, ["id": .string("ab"), "amount": .number(7.5)])
                == .invalidParameter("amount", "expected a string, found a number"))
    }

    @Test func anUnknownParameterIsRefusedByName() {
        #expect(refusal(.status, ["verbose": .bool(true)]) == .invalidParameter("verbose", "unknown parameter"))
        #expect(
            refusal(.get, ["id": .string("a"), "zz": .null, "aa": .null])
                == .invalidParameter("aa", "unknown parameter"))
    }

    @Test func aMissingOrMistypedParameterIsNamedWithWhatWasExpected() {
        #expect(refusal(.get, [:]) == .invalidParameter("id", "missing"))
        #expect(refusal(.get, ["id": .integer(3)]) == .invalidParameter("id", "expected a string, found a number"))
        #expect(refusal(.list, ["all": .string("yes")]) == .invalidParameter("all", "expected true or false"))
        #expect(
            refusal(.history, ["limit": .integer(-1)])
                == .invalidParameter("limit", "expected a whole number from 0 to 100000"))
        #expect(refusal(.add, ["item": .array([])]) == .invalidParameter("item", "expected an object, found an array"))
        #expect(refusal(.importItems, [:]) == .invalidParameter("items", "missing"))
    }
}

@Suite struct SyncProtocolTests {
    @Test func aMalformedPulledResourceIsRefusedNamingItsPlace() {
        func refusal(_ parameters: [String: JSONValue]) -> VarlinkError? {
            do throws(VarlinkError) {
                _ = try ReminderRequest(.syncPulled, parameters)
                return nil
            } catch { return error }
        }
        let good = JSONValue.object(["href": .string("/a.ics"), "body": .string("x")])
        #expect(
            refusal(["resources": .array([good, .object(["href": .string("/b.ics")])]), "removed": .array([])])
                == .invalidParameter("resources[1].body", "missing"))
        #expect(
            refusal(["resources": .array([.string("x")]), "removed": .array([])])
                == .invalidParameter("resources[0]", "expected an object, found a string"))
        #expect(
            refusal(["resources": .array([]), "removed": .array([.integer(1)])])
                == .invalidParameter("removed[0]", "expected a string, found a number"))
    }

    @Test func syncRepliesRoundTrip() throws {
        let begin = SyncBeginReply(token: "t", resources: [.init(href: "/a.ics", etag: "\"1\""), .init(href: "/b.ics", etag: nil)])
        #expect(try SyncBeginReply(parameters: begin.parameters) == begin)
        let pending = SyncPendingReply(changes: [
            .init(uid: "u", href: "/u.ics", etag: nil, body: "B", seq: 1),
            .init(uid: "v", href: "/v.ics", etag: "\"e\"", body: nil, seq: 2),
        ])
        #expect(try SyncPendingReply(parameters: pending.parameters) == pending)
        let status = SyncStatusReply(
            account: "alice@h", collection: "https://h/c/", lastSync: "2026-11-22T10:00:00+01:00", lastAttempt: nil,
            error: "the server refused the password (401)", waiting: 2, waitingSince: nil, conflicts: 1, connected: true)
        #expect(try SyncStatusReply(parameters: status.parameters) == status)
        #expect(try SyncPulledReply(parameters: SyncPulledReply(applied: 3, conflicts: 1).parameters).applied == 3)
        let pulled = SyncPulledReply(
            applied: 1, conflicts: 0, skipped: [.init(href: "/c/x.ics", reason: "X-REMINDERD-AMOUNT: not a decimal")])
        #expect(try SyncPulledReply(parameters: pulled.parameters) == pulled)
        #expect(throws: ReminderProtocolError.self) {
            try SyncPulledReply(parameters: ["applied": .integer(0), "conflicts": .integer(0)])
        }
        let wait = SyncWaitReply(reason: .refresh, uids: ["u@reminderd"])
        #expect(try SyncWaitReply(parameters: wait.parameters) == wait)
        #expect(throws: ReminderProtocolError.self) {
            try SyncWaitReply(parameters: ["reason": .string("later"), "uids": .array([])])
        }
    }
}
