import Foundation
import ReminderCore
import ReminderTestSupport
import Testing

@Suite struct ConfigurationTests {
    func refusal(_ json: String) -> String? {
        do {
            _ = try Fixture.config(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theExampleFileHoldsExactlyTheBuiltInDefaults() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config.example.json"), encoding: .utf8)
        #expect(try Fixture.config(text) == Configuration.defaults)
    }

    @Test func anEmptyDocumentMeansTheDefaults() throws {
        #expect(try Fixture.config("{}") == Configuration.defaults)
    }

    @Test func quietHoursCanBeTurnedOff() throws {
        #expect(try Fixture.config(#"{"quietHours": null}"#).quietHours == nil)
        #expect(try Fixture.config(#"{"quietHours": {"start": "22:00", "end": "22:00"}}"#).quietHours == nil)
        let wrapping = try Fixture.config(#"{"quietHours": {"start": "23:00", "end": "07:30"}}"#).quietHours
        #expect(wrapping?.wrapsMidnight == true)
    }

    @Test func theIndicatorIsOnUnlessTurnedOff() throws {
        #expect(Configuration.defaults.indicator)
        #expect(try Fixture.config(#"{"indicator": false}"#).indicator == false)
        #expect(refusal(#"{"indicator": "no"}"#) != nil)
    }

    @Test func badKeysAndValuesAreNamedByTheirPath() {
        #expect(refusal(#"{"reminderHour": "09:00"}"#) == "reminderHour: unknown field")
        #expect(
            refusal(#"{"quietHours": {"start": "25:00", "end": "08:00"}}"#)
                == #"quietHours.start: "25:00": 25:00 is not a time of day (00:00 to 23:59)"#)
        #expect(
            refusal(#"{"quietHours": {"start": "22:00"}}"#)
                == "quietHours.end: missing (give both start and end, HH:MM)")
        #expect(
            refusal(#"{"quietHours": {"start": "22:00", "end": "08:00", "days": 5}}"#)
                == "quietHours.days: unknown field")
        #expect(
            refusal(#"{"leadTimes": ["7d", "soon"]}"#)
                == #"leadTimes[1]: "soon": expected a number and a unit (m, h, d, w), like 7d or 2h"#)
        #expect(refusal(#"{"snoozeOptions": ["0m"]}"#) == #"snoozeOptions[0]: "0m": must be longer than zero"#)
        #expect(
            refusal(#"{"timeZone": "../etc/passwd"}"#)
                == #"timeZone: "../etc/passwd" is not an IANA zone name like Europe/Berlin"#)
        #expect(refusal(#"{"repeatEvery": "0.5m"}"#) == #"repeatEvery: "0.5m": expected a number and a unit (m, h), like 15m or 2h"#)
        #expect(refusal(#"{"repeatTimes": 500}"#) == "repeatTimes: 500 is not between 1 and 100")
        #expect((try? Fixture.config(#"{"repeatEvery": "15m"}"#))?.repeatEvery == CalendarDuration(15, .minutes))
        #expect(refusal(#"{"reminderTime": 9}"#) == "reminderTime: expected a string, found a number")
        #expect(refusal(#"[]"#) == "(top level): expected an object, found an array")
    }
}
