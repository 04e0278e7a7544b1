import CivilTime
import ReminderJSON

/// Fields read through a parser of the domain's text forms (dates, times, durations, amounts),
/// which the JSON reader knows nothing of.
extension FieldReader {
    /// Reads a string and converts it, turning a parse failure into the field's error.
    public mutating func parsed<T>(_ key: String, _ parse: (String) -> Result<T, DateParseError>)
        throws(ReminderCoreError)
        -> T?
    {
        guard let text = try string(key) else { return nil }
        switch parse(text) {
        case .success(let value): return value
        case .failure(let error): throw .invalidValue(field: fieldPath(key), reason: "\(quoted(text)): \(error.reason)")
        }
    }

    /// Like `parsed`, for a field that must be present.
    public mutating func required<T>(_ key: String, _ why: String, _ parse: (String) -> Result<T, DateParseError>)
        throws(ReminderCoreError) -> T
    {
        guard let value = try parsed(key, parse) else { throw .missingField(field: fieldPath(key), reason: why) }
        return value
    }
}

/// A user's text in quotes, shortened so an error line stays one line.
func quoted(_ text: String) -> String {
    let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
    return "\"\(short)\""
}
