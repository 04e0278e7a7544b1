import ReminderCore
import ReminderJSON
import ReminderPlatform

/// Reads the config file, or gives the built-in defaults when there is none.
enum ConfigLoader {
    static func load(path: String?) throws -> Configuration {
        guard let path else { return .defaults }
        let document = try readJSON(path)
        do { return try Configuration(json: document) } catch {
            throw Refusal(message: "\(path): \(error)")
        }
    }
}

/// Reads and parses a JSON file, refusing with the path and the reason.
func readJSON(_ path: String) throws -> JSONValue {
    do {
        return try JSONValue.parse(try FileReader.read(path), source: path)
    } catch let error as ReminderPlatformError {
        throw Refusal(message: error.description)
    } catch let error as ReminderCoreError {
        throw Refusal(message: error.description)
    }
}
