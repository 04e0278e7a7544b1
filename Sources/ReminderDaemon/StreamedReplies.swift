import ReminderJSON
import ReminderProtocol
import ReminderStore

/// `List` as a streamed reply: each item's view is built as it is written into the connection's
/// buffer and let go, so a 10k-item reply never holds 10k views (a tree of dictionaries several
/// times its 2.5 MiB of JSON) beside its bytes; and it is written part by part as the socket
/// drains (`ConnectionState`), so a client that does not read holds at most a chunk of it, not
/// 22 MiB at 100k items. The bytes are those of `ListReply`'s parameters.
///
/// It writes the snapshot taken when the call was answered: its items, records, timer wheel,
/// rules, zone and settings are copy-on-write values, so a change made before the reply goes out
/// (after the group commit covering what it shows) is not in it. `@unchecked Sendable`: it is
/// written on the engine's queue, where it was made (the server serves on that queue), and reads
/// only those values of the snapshot — never delivery's state or the store, which move on.
struct ListWriter: VarlinkReplyWriter, @unchecked Sendable {
    let snapshot: QuerySnapshot
    let kind: String?
    let all: Bool
    /// The unreadable items it lists after the others, taken with the snapshot.
    let quarantined: [QuarantinedItem]

    init(snapshot: QuerySnapshot, kind: String?, all: Bool) {
        (self.snapshot, self.kind, self.all) = (snapshot, kind, all)
        quarantined = snapshot.listedQuarantined(kind: kind)
    }

    func write(from cursor: inout VarlinkReplyCursor, into out: inout [UInt8], atLeast bytes: Int) -> Bool {
        let readable = snapshot.order.count
        return ArrayParts.write(
            from: &cursor, into: &out, atLeast: bytes, prefix: #"{"items":["#, count: readable + quarantined.count,
            element: { position in
                position < readable
                    ? snapshot.listedView(at: position, kind: kind, all: all)?.json
                    : QuerySnapshot.quarantinedView(quarantined[position - readable]).json
            },
            suffix: { $0 += Array("]}".utf8) })
    }
}

/// `Export` as a streamed reply: each item's §2 JSON is built as it is written, from the items
/// as they were when the call was answered; the state (records and the store's ledger, read
/// then) is built whole. The bytes are those of `ExportReply`'s parameters.
struct ExportWriter: VarlinkReplyWriter {
    let index: ItemIndex
    let state: JSONValue

    func write(from cursor: inout VarlinkReplyCursor, into out: inout [UInt8], atLeast bytes: Int) -> Bool {
        ArrayParts.write(
            from: &cursor, into: &out, atLeast: bytes, prefix: #"{"items":["#, count: index.order.count,
            element: { position in index.items[index.order[position]].flatMap(Backup.exported) },
            suffix: { out in
                out += Array(#"],"state":"#.utf8)
                state.serialize(into: &out)
                out.append(UInt8(ascii: "}"))
            })
    }
}

/// The parts of a streamed reply whose object is mostly one array: part 0 is `prefix` (the
/// object's start up to the array's `[`), parts 1...count the elements (`element` gives nil for
/// one the reply leaves out), and the last `suffix`, which closes the array and the object.
enum ArrayParts {
    static func write(
        from cursor: inout VarlinkReplyCursor, into out: inout [UInt8], atLeast bytes: Int, prefix: String,
        count: Int, element: (Int) -> JSONValue?, suffix: (inout [UInt8]) -> Void
    ) -> Bool {
        let start = out.count
        while out.count - start < bytes {
            let part = cursor.next
            cursor.next += 1
            if part == 0 {
                out += Array(prefix.utf8)
            } else if part <= count {
                guard let value = element(part - 1) else { continue }
                if cursor.separated { out.append(UInt8(ascii: ",")) }
                cursor.separated = true
                value.serialize(into: &out)
            } else {
                suffix(&out)
                return true
            }
        }
        return false
    }
}
