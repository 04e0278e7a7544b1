import Testing

@testable import ReminderDaemon

@Suite struct DoNotDisturbTests {
    let server = "org.freedesktop.Notifications"
    let dunst = "org.dunstproject.cmd0"

    @Test func beforeAnythingWasHeardTheDesktopIsNotInDoNotDisturb() {
        #expect(DoNotDisturb().reason == nil)
    }

    @Test func theServersInhibitedPropertyTurnsItOnAndOff() {
        var state = DoNotDisturb()
        let on = state.propertiesChanged(interface: server, changed: ["Inhibited": true], invalidated: [])
        #expect(on.changed && on.reread.isEmpty)
        #expect(state.reason == "the notification server is inhibited")
        let again = state.propertiesChanged(interface: server, changed: ["Inhibited": true], invalidated: [])
        #expect(!again.changed)  // the same value again is no change for the engine to act on
        let off = state.propertiesChanged(interface: server, changed: ["Inhibited": false], invalidated: [])
        #expect(off.changed)
        #expect(state.reason == nil)
    }

    @Test func dunstsPausedCountsOnlyOnDunstsInterface() {
        var state = DoNotDisturb()
        let elsewhere = state.propertiesChanged(interface: server, changed: ["paused": true], invalidated: [])
        #expect(!elsewhere.changed && state.reason == nil)
        let unrelated = state.propertiesChanged(interface: dunst, changed: ["displayed": true], invalidated: [])
        #expect(!unrelated.changed && state.reason == nil)
        let paused = state.propertiesChanged(interface: dunst, changed: ["paused": true], invalidated: [])
        #expect(paused.changed && state.reason == "dunst is paused")
    }

    @Test func anInvalidatedPropertyIsToBeReadAgainAndKeepsItsValueMeanwhile() {
        var state = DoNotDisturb()
        state.set(.serverInhibited, true)
        let heard = state.propertiesChanged(interface: server, changed: [:], invalidated: ["Inhibited", "Other"])
        #expect(!heard.changed && heard.reread == [.serverInhibited])
        #expect(state.reason == "the notification server is inhibited")
    }

    @Test func gnomesBannersAreTheDesktopsAndOutliveTheServer() {
        var state = DoNotDisturb()
        let turnedOff = state.set(.gnomeBannersOff, true)
        let again = state.set(.gnomeBannersOff, true)
        #expect(turnedOff && !again)
        state.set(.serverInhibited, true)
        #expect(state.reason == "the notification server is inhibited")  // the server's reason first
        state.serverVanished()
        #expect(state.reason == "GNOME's notification banners are off")
        let turnedOn = state.set(.gnomeBannersOff, false)
        #expect(turnedOn && state.reason == nil)
    }

    @Test func aVanishedServersSwitchesAreOff() {
        var state = DoNotDisturb()
        state.set(.serverInhibited, true)
        state.set(.dunstPaused, true)
        state.serverVanished()
        #expect(state.reason == nil)
    }
}
