import FoundationEssentials

extension JSONValue {
    /// Parses a JSON document; `source` names it in the error ("items.json: not valid JSON: …").
    public static func parse(_ bytes: [UInt8], source: String) throws(ReminderCoreError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            let detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            throw .invalidValue(field: source, reason: "not valid JSON (\(detail))")
        } catch {
            throw .invalidValue(field: source, reason: "not valid JSON (\(error))")
        }
    }
}
