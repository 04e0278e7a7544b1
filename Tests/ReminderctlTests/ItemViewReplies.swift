import ReminderJSON
import ReminderProtocol

extension ItemView {
    /// An item as a reply carries it, read as the client reads one: `fields` over the ones every
    /// item has (an available benefit "k4s8", "Item"). A field the client refuses stops the test.
    static func reply(_ fields: [String: JSONValue]) -> ItemView {
        let every: [String: JSONValue] = [
            "id": .string("k4s8"), "kind": .string("benefit"), "title": .string("Item"), "status": .string("available"),
        ]
        return try! ItemView(wire: .object(every.merging(fields) { $1 }), path: "item")
    }

    /// The item with `changes` over its fields (null takes one away).
    func with(_ changes: [String: JSONValue]) -> ItemView {
        guard case .object(let fields) = json else { return self }
        return ItemView.reply(fields.merging(changes) { $1 })
    }
}
