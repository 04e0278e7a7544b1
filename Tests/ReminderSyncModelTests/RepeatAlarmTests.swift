import CivilTime
import ICalendar
import ReminderCore
import Testing

@testable import ReminderSyncModel

/// Repeat until acknowledged over CalDAV (issue #30): the item's own fields travel as
/// `X-REMINDERD-REPEAT-*` and come back the same; each of reminderd's alarms carries the rule it
/// follows as RFC 5545's `REPEAT` and `DURATION`, so a phone's alarm repeats as the pop-up does.
@Suite struct RepeatAlarmTests {
    func item(every: CalendarDuration?, times: Int?) -> Item {
        var coupon = Kit.coupon
        coupon.lead = [CalendarDuration(1, .days)]
        coupon.repeatEvery = every
        coupon.repeatTimes = times
        return coupon
    }

    @Test func anItemsRepeatIsItsAlarmsRepeatAndDurationAndReadsBackTheSame() throws {
        let repeating = item(every: CalendarDuration(15, .minutes), times: 3)
        let text = Kit.written(SyncRecord(item: repeating))
        let alarm = try #require(try Kit.todo(text).components("VALARM").first)
        #expect(alarm.property("REPEAT")?.value == "3")
        #expect(alarm.property("DURATION")?.value == "PT15M")
        #expect(try Kit.todo(text).property("X-REMINDERD-REPEAT-EVERY")?.value == "15m")
        let back = try Kit.read(text).record.item
        #expect(back.repeatEvery == CalendarDuration(15, .minutes) && back.repeatTimes == 3)
    }

    @Test func theConfigsRepeatIsWrittenOnTheAlarmsButNotAsTheItemsOwn() throws {
        var configuration = Kit.context.planner.configuration
        configuration.repeatEvery = CalendarDuration(2, .hours)
        let context = SyncContext(
            planner: Planner(configuration: configuration, zone: Kit.newYork), now: Kit.now,
            zoneNamed: Kit.context.zoneNamed)
        let text = Kit.written(SyncRecord(item: item(every: nil, times: nil)), context: context)
        let todo = try Kit.todo(text)
        #expect(todo.components("VALARM").map { $0.property("DURATION")?.value } == ["PT2H"])
        #expect(todo.components("VALARM").map { $0.property("REPEAT")?.value } == ["3"])
        #expect(todo.property("X-REMINDERD-REPEAT-EVERY") == nil)
        let back = try Kit.read(text, context: context).record.item
        #expect(back.repeatEvery == nil && back.repeatTimes == nil)
    }

    @Test func turnedOffTheAlarmsLoseRepeatAndDuration() throws {
        let on = Kit.written(SyncRecord(item: item(every: CalendarDuration(15, .minutes), times: 3)))
        let off = VTodoWriter.write(
            SyncRecord(item: item(every: CalendarDuration(0, .minutes), times: nil)), uid: Kit.uid,
            into: try Component.parse(on), context: Kit.context
        ).serialized()
        let alarm = try #require(try Kit.todo(off).components("VALARM").first)
        #expect(alarm.property("REPEAT") == nil && alarm.property("DURATION") == nil)
        #expect(try Kit.read(off).record.item.repeatEvery == CalendarDuration(0, .minutes))
    }
}
