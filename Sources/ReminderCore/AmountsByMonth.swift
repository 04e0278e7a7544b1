import ReminderJSON

/// A benefit's amounts by month in their JSON form (CONTRACT §2): `"amountIn": {"12": "35"}`,
/// month numbers 1–12 as keys and decimal amounts as values — shared by items and the catalog.
extension Benefit {
    /// Reads `amountIn`; empty when absent.
    public static func decodeAmountIn(_ fields: inout FieldReader) throws(ReminderCoreError) -> [Int: Money] {
        guard let value = fields.value("amountIn") else { return [:] }
        let field = fields.fieldPath("amountIn")
        guard case .object(let months) = value else {
            throw .invalidValue(
                field: field,
                reason: "expected an object of month (1-12) to amount, like {\"12\": \"35\"}, found \(value.typeName)")
        }
        var result: [Int: Money] = [:]
        for (key, amount) in months {
            guard let month = Int(key), (1...12).contains(month), String(month) == key else {
                throw .invalidValue(field: "\(field).\(key)", reason: "\(quoted(key)) is not a month number 1 to 12")
            }
            guard case .string(let text) = amount else {
                throw .invalidValue(
                    field: "\(field).\(key)",
                    reason: "expected a decimal string like \"35\", found \(amount.typeName)")
            }
            switch Money.parse(text) {
            case .success(let money): result[month] = money
            case .failure(let error):
                throw .invalidValue(field: "\(field).\(key)", reason: "\(quoted(text)): \(error.reason)")
            }
        }
        return result
    }

    /// `amountIn` as JSON.
    public static func amountInJSON(_ amounts: [Int: Money]) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: amounts.map { (String($0.key), .string($0.value.description)) }))
    }
}
