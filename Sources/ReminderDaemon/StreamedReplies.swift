import ReminderJSON
import ReminderProtocol

/// `List` as a streamed reply: each item's view is built as it is written into the connection's
/// buffer and let go, so a 10k-item reply never holds 10k views (a tree of dictionaries several
/// times its 2.5 MiB of JSON) beside its bytes. The bytes are those of `ListReply`'s parameters.
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

    /// An item's view is ~250 bytes (a `list` of 10k is 2.5 MiB): twice that.
    var estimatedSize: Int { (snapshot.order.count + snapshot.index.quarantined.count) * 512 }

    func writeParameters(into out: inout [UInt8]) {
        out += Array(#"{"items":["#.utf8)
        var first = true
        snapshot.forEachListed(kind: kind, all: all) { view in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            view.json.serialize(into: &out)
        }
        out += Array("]}".utf8)
    }
}

/// `Export` as a streamed reply: each item's §2 JSON is built as it is written, from the items
/// as they were when the call was answered; the state (records and the store's ledger, read
/// then) is built whole. The bytes are those of `ExportReply`'s parameters.
struct ExportWriter: VarlinkReplyWriter {
    let index: ItemIndex
    let state: JSONValue

    /// An item's §2 JSON is ~200 bytes, its records fewer: twice that, all told.
    var estimatedSize: Int { index.order.count * 512 }

    func writeParameters(into out: inout [UInt8]) {
        out += Array(#"{"items":["#.utf8)
        var first = true
        for id in index.order {
            guard let item = index.items[id] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            item.json.serialize(into: &out)
        }
        out += Array(#"],"state":"#.utf8)
        state.serialize(into: &out)
        out.append(UInt8(ascii: "}"))
    }
}
