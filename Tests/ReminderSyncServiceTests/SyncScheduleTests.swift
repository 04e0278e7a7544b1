import ReminderSyncService
import Testing

/// A generator that always gives the same number, so jitter can be pinned to either end.
struct FixedGenerator: RandomNumberGenerator {
    let value: UInt64
    mutating func next() -> UInt64 { value }
}

@Suite struct SyncScheduleTests {
    @Test func theFirstPassIsDueAtOnceAndLaterOnesAboutTenMinutesApartWithJitter() {
        var schedule = SyncSchedule(now: 5_000)
        #expect(schedule.timeout(now: 5_000) == 0)
        var low = FixedGenerator(value: 0)
        schedule.passEnded(.full, failure: nil, now: 10_000, random: &low)
        #expect(schedule.due == 10_000 + 540_000)
        var high = FixedGenerator(value: .max)
        schedule.passEnded(.full, failure: nil, now: 10_000, random: &high)
        #expect(schedule.due > 10_000 + 659_000 && schedule.due <= 10_000 + 660_000)
        #expect(schedule.timeout(now: 20_000) == Int32(schedule.due - 20_000))
        #expect(schedule.timeout(now: schedule.due + 5) == 0)
    }

    @Test func retryableFailuresBackOffFrom30SecondsDoublingTo30Minutes() {
        var schedule = SyncSchedule(now: 0)
        var random = FixedGenerator(value: 0)
        var delays: [Int64] = []
        for _ in 0..<10 {
            schedule.passEnded(.full, failure: .retryable, now: 1_000, random: &random)
            delays.append(schedule.due - 1_000)
        }
        #expect(delays == [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000, 1_800_000, 1_800_000])
        schedule.passEnded(.full, failure: nil, now: 1_000, random: &random)
        #expect(schedule.backoff == nil && schedule.due == 1_000 + 540_000)
        schedule.passEnded(.full, failure: .retryable, now: 1_000, random: &random)
        #expect(schedule.due == 31_000)
    }

    @Test func failuresThatRetryingCannotFixWaitForThePeriod() {
        var schedule = SyncSchedule(now: 0)
        var random = FixedGenerator(value: 0)
        schedule.passEnded(.full, failure: .retryable, now: 0, random: &random)
        schedule.passEnded(.full, failure: .waitForTrigger, now: 0, random: &random)
        #expect(schedule.backoff == nil && schedule.due == 540_000)
    }

    @Test func aSuccessfulRefreshKeepsThePeriodButEndsABackOffAtOnce() {
        var schedule = SyncSchedule(now: 0)
        var random = FixedGenerator(value: 0)
        schedule.passEnded(.full, failure: nil, now: 0, random: &random)
        schedule.passEnded(.pullOnly, failure: nil, now: 100_000, random: &random)
        #expect(schedule.due == 540_000)
        schedule.passEnded(.full, failure: .retryable, now: 200_000, random: &random)
        schedule.passEnded(.pullOnly, failure: nil, now: 210_000, random: &random)
        #expect(schedule.due == 210_000 && schedule.backoff == nil)
    }
}
