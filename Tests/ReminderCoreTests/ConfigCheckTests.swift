import ReminderPlatform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A config error points at the mistake (issue 28): every mistake at once, each at its line
/// and column, with the setting or zone meant.
@Suite struct ConfigCheckTests {
    func load(_ text: String) -> String {
        let path = "/tmp/reminderd-config-check-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).json"
        #expect(FileWriter.write(Array(text.utf8), to: path))
        defer { unlink(path) }
        switch ConfigFile.load(explicitPath: path) {
        case .success: return "ok"
        case .failure(let error): return error.message.replacingPath(path)
        }
    }

    @Test func everyMistakeAtOnceAtItsLineAndColumnWithTheKeyOrZoneMeant() {
        let text = """
            {
              "timeZone": "America/NewYork",
              "quietHour": {"start": "22:00", "end": "08:00"},
              "leadTimes": ["7d", "soon"],
              "quietHours": {"start": "22:00", "ende": "08:00"},
              "indicator": true
            }
            """
        let lines = load(text).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        guard lines.count == 4 else { return }
        #expect(
            lines[0]
                == #"F:2:3: timeZone: "America/NewYork" is not a time zone in /usr/share/zoneinfo; did you mean America/New_York?"#
        )
        #expect(lines[1] == #"F:3:3: "quietHour" is not a setting; did you mean quietHours?"#)
        #expect(lines[2].hasPrefix(#"F:4:3: leadTimes[1]: "soon": "#))
        #expect(lines[3] == "F:5:36: quietHours.ende: unknown field")
    }

    @Test func aGoodConfigLoadsAndASyntaxErrorSaysItsLineAndColumn() {
        #expect(load(#"{"timeZone": "Europe/Berlin", "quietHours": null}"#) == "ok")
        #expect(load("{\n  \"currency\" \"EUR\"\n}").contains("(line 2, column 14)"))
    }
}

extension String {
    fileprivate func replacingPath(_ path: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(path) ? "F" + line.dropFirst(path.count) : String(line)
        }.joined(separator: "\n")
    }
}
