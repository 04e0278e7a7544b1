import Foundation
import Testing

@testable import CalDAV

@Suite struct MultistatusTests {
    let base = URL(string: "http://127.0.0.1:5232/alice/")!

    func parse(_ text: String) throws -> Multistatus {
        let root = try XMLTree.parse(Array(text.utf8)).get()
        return try Multistatus(root, base: base, request: "PROPFIND test")
    }

    @Test func namespacesMatchWhateverThePrefix() throws {
        let radicale = try parse(Canned.radicaleCalendars).responses.compactMap(CalendarCollection.init)
        let xandikos = try parse(Canned.xandikosCalendars).responses.compactMap(CalendarCollection.init)
        #expect(radicale.map(\.url.path) == ["/alice/reminderd"])
        #expect(xandikos.map(\.url.path) == ["/user/calendars/reminderd", "/user/calendars/calendar"])
        #expect(radicale[0].components == ["VTODO"])
        #expect(radicale[0].displayName == "reminderd")
        #expect(radicale[0].syncToken?.hasPrefix("http://radicale.org/ns/sync/") == true)
        #expect(radicale[0].ctag == #""e9e30750f572db0398aca46f6a3a4e8baa92898fb1503a38bce6eb7b1b1c5500""#)
        #expect(xandikos[1].components.contains("VEVENT") && xandikos[1].holdsTasks)
    }

    @Test func propertiesUnderA404PropstatAreLeftOut() throws {
        let home = try parse(Canned.radicaleCalendars).responses[0]
        #expect(home.property(DAVNamespace.dav, "resourcetype") != nil)
        #expect(home.property(DAVNamespace.dav, "displayname") == nil)
        #expect(CalendarCollection(home) == nil)
    }

    @Test func syncTokenAndRemovedMembers() throws {
        let status = try parse(Canned.xandikosIncrementalSync)
        #expect(status.syncToken == "ffa430eb72edda3f6a4263df02f0c7caaa54e6e9")
        #expect(status.responses[0].status == 404)
        #expect(status.responses[0].properties.isEmpty)
        #expect(status.responses[1].etag == #""02c471488a19df04981b71c3157751df628b2686""#)
    }

    @Test func calendarDataKeepsItsLines() throws {
        let status = try parse(Canned.radicaleMultiget)
        let data = try #require(status.responses[1].property(DAVNamespace.caldav, "calendar-data")?.text)
        #expect(data.hasPrefix("BEGIN:VCALENDAR\nVERSION:2.0\n"))
        #expect(data.contains("UID:a1@reminderd\n"))
    }

    @Test func absoluteHrefsResolveToTheSameResource() throws {
        let status = try parse(Canned.xandikosMissingCollection)
        #expect(status.responses[0].href.absoluteString == "http://127.0.0.1:18802/user/calendars/nothere/")
        #expect(sameResource(URL(string: "http://h/a/b%20c/")!, URL(string: "http://h/a/b c")!.absoluteURL))
    }

    @Test func truncatedXMLIsAnErrorWithItsLine() {
        let cut = String(Canned.radicaleCalendars.prefix(400))
        guard case .failure(let error) = XMLTree.parse(Array(cut.utf8)) else {
            Issue.record("a cut-off document parsed")
            return
        }
        #expect(error.line == 2)
        #expect(error.detail.contains("ends before"))
    }

    @Test func emptyBodyIsNamed() {
        #expect(throws: Never.self) {
            guard case .failure(let error) = XMLTree.parse(Array("  \n".utf8)) else {
                Issue.record("an empty document parsed")
                return
            }
            #expect(error.detail == "the document is empty")
        }
    }

    @Test func anotherRootElementIsRefused() throws {
        let root = try XMLTree.parse(Array(Canned.radicaleInvalidToken.utf8)).get()
        #expect(
            throws: DAVError.missingProperty(
                request: "PROPFIND test", property: "DAV:multistatus (the answer is <error>)")
        ) {
            try Multistatus(root, base: base, request: "PROPFIND test")
        }
    }
}

/// What FoundationEssentials lacks and CalDAV now writes out itself.
@Suite struct EssentialsReplacementTests {
    @Test func percentDecodingIsRemovingPercentEncodings() {
        #expect(percentDecoded("/a/b%20c%C3%A9/") == "/a/b cé/")
        #expect(percentDecoded("/plain/") == "/plain/")
        #expect(percentDecoded("/a%2") == nil)
        #expect(percentDecoded("/a%zz/") == nil)
        #expect(percentDecoded("/a%FF/") == nil)  // not UTF-8
        // The same answers as Foundation's (which the tests may link; reminderd-sync does not).
        for path in ["/a/b%20c%C3%A9/", "/%41%2f", "/a%2", "/a%zz/", "/a%FF/", "/%%20", "/ü%20x/", ""] {
            #expect(percentDecoded(path) == path.removingPercentEncoding, "\(path)")
        }
    }

    @Test func displayNamesAreEscapedForXML() {
        let body = DAVBody.makeCalendar(displayName: "Tom & Jerry <tasks> \"x\"", component: "VTODO")
        #expect(body.contains("<D:displayname>Tom &amp; Jerry &lt;tasks&gt; \"x\"</D:displayname>"))
    }
}
