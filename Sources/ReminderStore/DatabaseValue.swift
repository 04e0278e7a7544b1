/// A value as SQLite stores it, and the Swift types the store reads and binds.
enum DatabaseValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type stored as one SQLite value. Reading is strict, as GRDB's was: an integer column
/// is not read as a string, and a real is read as an integer only when it is whole.
protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// Nil when the value is NULL or of another kind.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension String: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { .text(self) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        switch value {
        case .text(let text): text
        case .blob(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }
}

extension Int64: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { .integer(self) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { .integer(Int64(self)) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Int? { Int64.fromDatabaseValue(value).flatMap(Int.init(exactly:)) }
}

extension Bool: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let integer): integer != 0
        case .real(let real): real != 0
        default: nil
        }
    }
}

extension Double: DatabaseValueConvertible {
    var databaseValue: DatabaseValue { .real(self) }
    static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }
}

/// The values bound to a statement's `?` parameters, in order: `[id, due, nil]`.
struct StatementArguments: ExpressibleByArrayLiteral {
    var values: [DatabaseValue]

    init() { values = [] }

    init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        values = elements.map { $0?.databaseValue ?? .null }
    }
}
