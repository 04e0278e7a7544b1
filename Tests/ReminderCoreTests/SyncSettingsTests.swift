import ReminderCore
import ReminderJSON
import ReminderTestSupport
import Testing

/// The config's `"sync"` object, read by the one config loader (it was refused as an unknown key).
extension ConfigurationTests {
    func sync(_ fields: String) -> String { #"{"timeZone": "UTC", "sync": {"# + fields + "}}" }

    @Test func theSyncObjectIsReadWithItsDefaults() throws {
        let config = try Fixture.config(sync(#""url": "https://dav.example.org/alice/", "username": "alice""#))
        #expect(
            config.sync
                == SyncSettings(url: "https://dav.example.org/alice/", username: "alice", password: .secretService))
        #expect(config.sync?.calendar == "reminderd")
        #expect(config.sync?.mirror == nil)
        #expect(try Fixture.config(#"{"sync": null}"#).sync == nil)
        #expect(Configuration.defaults.sync == nil)
    }

    @Test func everyFieldIsRead() throws {
        let file = try Fixture.config(
            sync(
                #""url": "http://127.0.0.1:5232/", "username": "a", "passwordFile": "~/.dav", "calendar": "bills", "#
                    + #""mirror": "bills-events""#))
        #expect(
            file.sync
                == SyncSettings(
                    url: "http://127.0.0.1:5232/", username: "a", password: .file("~/.dav"), calendar: "bills",
                    mirror: "bills-events"))
        let command = try Fixture.config(
            sync(#""url": "https://[::1]:8443/dav/", "username": "a", "passwordCommand": "pass show dav""#))
        #expect(command.sync?.password == .command("pass show dav"))
    }

    @Test func whatSetupWritesReadsBackTheSame() throws {
        for password in [PasswordSource.secretService, .file("/home/a/.dav"), .command("pass show dav")] {
            let settings = SyncSettings(
                url: "https://dav.example.org/", username: "alice", password: password, calendar: "money",
                mirror: "money-events")
            #expect(try SyncSettings(settings.json) == settings)
        }
    }

    @Test func mistakesAreNamedByTheirField() {
        let base = #""url": "https://dav.example.org/", "username": "a""#
        #expect(refusal(sync(#""username": "a""#)) == "sync.url: missing (the CalDAV server's address)")
        #expect(
            refusal(sync(#""url": "dav.example.org", "username": "a""#))
                == #"sync.url: "dav.example.org" must be an http(s) address such as https://dav.example.org/alice/"#)
        #expect(
            refusal(sync(#""url": "https://", "username": "a""#))
                == #"sync.url: "https://" must be an http(s) address such as https://dav.example.org/alice/"#)
        #expect(
            refusal(sync(#""url": "https://dav.example.org/my calendars/", "username": "a""#))
                == #"sync.url: "https://dav.example.org/my calendars/" has " ", which a URL cannot hold unescaped"#)
        #expect(
            refusal(sync(#""url": "https://alice:pw@dav.example.org/", "username": "a""#))
                == #"sync.url: "https://alice:…@dav.example.org/" holds a user name; "#
                + "put it in sync.username, not in the address")
        #expect(
            refusal(sync(#""url": "https://alice@dav.example.org/", "username": "a""#))
                == #"sync.url: "https://alice@dav.example.org/" holds a user name; "#
                + "put it in sync.username, not in the address")
        #expect(
            refusal(sync(#""url": "https://dav.example.org:99999/", "username": "a""#))
                == #"sync.url: "https://dav.example.org:99999/" has "99999", which is not a port number (1 to 65535)"#)
        // A hand-edited value is named escaped, so that it cannot garble the terminal or the journal.
        #expect(
            refusal(sync(#""url": "https://dav.example.org/\n\u001b[2J\"x", "username": "a""#))
                == #"sync.url: "https://dav.example.org/\n\u{1B}[2J\"x" has "\n", which a URL cannot hold unescaped"#)
        #expect(
            refusal(sync(#""url": "dav\u202eexample", "username": "a""#))
                == #"sync.url: "dav\u{202E}example" must be an http(s) address such as https://dav.example.org/alice/"#)
        #expect(
            refusal(sync(#""url": "https://d/", "username": """#)) == "sync.username: missing (the account's user name)"
        )
        #expect(refusal(sync(base + #", "passwordFile": """#)) == "sync.passwordFile: is empty")
        #expect(
            refusal(sync(base + #", "passwordFile": "/p", "passwordCommand": "x""#))
                == "sync: has both passwordCommand and passwordFile; keep one")
        #expect(
            refusal(sync(base + #", "calendar": "a/b""#))
                == #"sync.calendar: "a/b" is one name in the calendar home, without "/""#)
        #expect(
            refusal(sync(base + #", "calendar": "..""#)) == "sync.calendar: must be a calendar name such as reminderd")
        #expect(
            refusal(sync(base + #", "mirror": "reminderd""#))
                == #"sync.mirror: "reminderd" is the task list itself; the mirror needs a calendar of its own"#)
        #expect(refusal(sync(base + #", "password": "hunter2""#)) == "sync.password: unknown field")
        #expect(refusal(#"{"sync": "https://dav.example.org/"}"#) == "sync: expected an object, found a string")
    }
}

/// An `http://` account on another machine sends the password in clear with every request: the
/// policy that `reminderctl sync setup` and `reminderd-sync` refuse it unless accepted.
extension ConfigurationTests {
    @Test func onlyPlainHttpToAnotherMachineSendsThePasswordInClear() {
        let local = [
            "http://127.0.0.1:5232/", "http://127.255.3.4/", "http://localhost:5232/dav/", "http://LOCALHOST./",
            "http://[::1]:5232/", "http://[0:0:0:0:0:0:0:1]/", "http://[::ffff:127.0.0.1]/",
            "https://dav.example.org/", "HTTPS://10.0.0.5/",
        ]
        for url in local { #expect(SyncSettings.clearTextHost(of: url) == nil, "\(url)") }
        let remote: [(String, String)] = [
            ("http://dav.example.org/alice/", "dav.example.org"), ("HTTP://Dav.Example.ORG:8080", "dav.example.org"),
            ("http://192.168.1.10:5232/", "192.168.1.10"), ("http://128.0.0.1/", "128.0.0.1"),
            ("http://127.0.0.1.example.org/", "127.0.0.1.example.org"), ("http://127.1/", "127.1"),
            ("http://localhost.example.org/", "localhost.example.org"), ("http://[::2]/", "[::2]"),
            ("http://[fe80::1]:5232/", "[fe80::1]"), ("http://nas.local?x", "nas.local"),
        ]
        for (url, host) in remote { #expect(SyncSettings.clearTextHost(of: url) == host, "\(url)") }
    }

    /// `reminderctl status` says `alice@dav.example.org` from the config before reminderd-sync has
    /// reported the account; read without Foundation's URL, which reminderctl does not link.
    @Test func theAccountsHostIsReadFromItsAddress() {
        let hosts: [(String, String?)] = [
            ("https://dav.example.org/alice/", "dav.example.org"), ("HTTPS://Dav.Example.ORG:8443", "Dav.Example.ORG"),
            ("http://127.0.0.1:5232/", "127.0.0.1"), ("http://[::1]:5232/dav/", "::1"), ("https://nas.local?x", "nas.local"),
            ("https://nas.local#top", "nas.local"), ("dav.example.org", nil),
        ]
        for (url, host) in hosts {
            #expect(SyncSettings(url: url, username: "alice", password: .secretService).host == host, "\(url)")
        }
    }

    @Test func plainHttpToAnotherMachineIsRefusedUntilAcceptedAndTheAcceptanceIsKept() throws {
        let plain = try #require(
            try Fixture.config(sync(#""url": "http://dav.example.org/", "username": "a""#)).sync)
        #expect(plain.allowPlainHTTP == false)
        #expect(
            plain.plainHTTPRefusal
                == #""http://dav.example.org/" is plain http: the password would go in clear to dav.example.org "#
                + #"on every request; use https://, or accept that with "allowPlainHttp": true in the "sync" section"#)
        let accepted = try #require(
            try Fixture.config(sync(#""url": "http://dav.example.org/", "username": "a", "allowPlainHttp": true"#)).sync
        )
        #expect(accepted.allowPlainHTTP && accepted.plainHTTPRefusal == nil)
        #expect(accepted.clearTextHost == "dav.example.org")
        #expect(try SyncSettings(accepted.json) == accepted)
        #expect(
            plain.json
                == .object([
                    "url": .string("http://dav.example.org/"), "username": .string("a"),
                    "calendar": .string("reminderd"),
                ]))
        let loopback = try #require(try Fixture.config(sync(#""url": "http://127.0.0.1:5232/", "username": "a""#)).sync)
        #expect(loopback.plainHTTPRefusal == nil && loopback.clearTextHost == nil)
        #expect(
            refusal(sync(#""url": "http://dav.example.org/", "username": "a", "allowPlainHttp": "yes""#))
                == "sync.allowPlainHttp: expected true or false, found a string")
    }
}
