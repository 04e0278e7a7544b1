/// Answers captured from Radicale 3.9.0 and Xandikos 0.4.10 on 127.0.0.1 (Radicale writes a
/// default DAV: namespace and a C: prefix; Xandikos numbered ns0:/ns1: prefixes), so the parser
/// is shown both spellings of the same elements.
enum Canned {
    static let radicalePrincipal = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:"><response><href>/</href><propstat><prop><current-user-principal><href>/alice/</href></current-user-principal></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    static let xandikosHomeSet = """
        <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>/user/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns1:calendar-home-set><ns0:href>/user/calendars/</ns0:href></ns1:calendar-home-set></ns0:prop></ns0:propstat></ns0:response></ns0:multistatus>
        """

    static let radicaleCalendars = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/"><response><href>/alice/</href><propstat><prop><resourcetype><principal /><collection /></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname /><C:supported-calendar-component-set /><sync-token /><CS:getctag /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response><response><href>/alice/reminderd/</href><propstat><prop><resourcetype><C:calendar /><collection /></resourcetype><displayname>reminderd</displayname><C:supported-calendar-component-set><C:comp name="VTODO" /></C:supported-calendar-component-set><sync-token>http://radicale.org/ns/sync/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855</sync-token><CS:getctag>"e9e30750f572db0398aca46f6a3a4e8baa92898fb1503a38bce6eb7b1b1c5500"</CS:getctag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    static let xandikosCalendars = """
        <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="http://calendarserver.org/ns/" xmlns:ns2="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>/user/calendars/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype><ns0:collection /></ns0:resourcetype><ns0:displayname>calendars</ns0:displayname><ns0:sync-token>4b825dc642cb6eb9a060e54bf8d69288fbee4904</ns0:sync-token><ns1:getctag>4b825dc642cb6eb9a060e54bf8d69288fbee4904</ns1:getctag></ns0:prop></ns0:propstat><ns0:propstat><ns0:status>HTTP/1.1 404 Not Found</ns0:status><ns0:prop><ns2:supported-calendar-component-set /></ns0:prop></ns0:propstat></ns0:response><ns0:response><ns0:href>/user/calendars/reminderd/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype><ns0:collection /><ns2:calendar /></ns0:resourcetype><ns0:displayname>reminderd</ns0:displayname><ns2:supported-calendar-component-set><ns2:comp name="VTODO" /></ns2:supported-calendar-component-set><ns0:sync-token>2a23c59dc04e6fb9a395ed0abb764cfd0ee42353</ns0:sync-token><ns1:getctag>2a23c59dc04e6fb9a395ed0abb764cfd0ee42353</ns1:getctag></ns0:prop></ns0:propstat></ns0:response><ns0:response><ns0:href>/user/calendars/calendar/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype><ns0:collection /><ns2:calendar /></ns0:resourcetype><ns0:displayname>calendar</ns0:displayname><ns2:supported-calendar-component-set><ns2:comp name="VEVENT" /><ns2:comp name="VTODO" /><ns2:comp name="VJOURNAL" /><ns2:comp name="VFREEBUSY" /><ns2:comp name="VAVAILABILITY" /></ns2:supported-calendar-component-set><ns0:sync-token>ae4423fea231573dd53ab2567fdc26cd3f98a7ca</ns0:sync-token><ns1:getctag>ae4423fea231573dd53ab2567fdc26cd3f98a7ca</ns1:getctag></ns0:prop></ns0:propstat></ns0:response></ns0:multistatus>
        """

    static let radicaleInitialSync = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:"><sync-token>http://radicale.org/ns/sync/fffa156b82889ece3d90de4dcad40246ca8fb71c81684c1fd0ffc31daa4c0c24</sync-token><response><href>/alice/reminderd/a1.ics</href><propstat><prop><getetag>"783738a6c523fb278c8285db9a12b3911824b9d6428afc5d6e42baec9f89a1f2"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    /// A member deleted since the token: a response with a 404 status and no propstat.
    static let xandikosIncrementalSync = """
        <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>/user/calendars/reminderd/a1.ics</ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response><ns0:response><ns0:href>/user/calendars/reminderd/b2.ics</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:getetag>"02c471488a19df04981b71c3157751df628b2686"</ns0:getetag></ns0:prop></ns0:propstat></ns0:response><ns0:sync-token>ffa430eb72edda3f6a4263df02f0c7caaa54e6e9</ns0:sync-token></ns0:multistatus>
        """

    static let radicaleInvalidToken = """
        <?xml version='1.0' encoding='utf-8'?>
        <error xmlns="DAV:"><valid-sync-token /></error>
        """

    static let xandikosInvalidToken = """
        <ns0:error xmlns:ns0="DAV:"><ns0:valid-sync-token /><ns0:responsedescription>Requested sync token http://bogus/token/1 is invalid</ns0:responsedescription></ns0:error>
        """

    static let radicaleETags = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/alice/reminderd/</href><propstat><prop><getetag>"ddc00f89c5d418ed7e43a86c5ba2009746476762c42ed1bf08e214ee1b2e97bf"</getetag><resourcetype><C:calendar /><collection /></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response><response><href>/alice/reminderd/a1.ics</href><propstat><prop><getetag>"783738a6c523fb278c8285db9a12b3911824b9d6428afc5d6e42baec9f89a1f2"</getetag><resourcetype /></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    static let radicaleMultiget = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/alice/reminderd/missing.ics</href><status>HTTP/1.1 404 Not Found</status></response><response><href>/alice/reminderd/a1.ics</href><propstat><prop><getetag>"783738a6c523fb278c8285db9a12b3911824b9d6428afc5d6e42baec9f89a1f2"</getetag><C:calendar-data>BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//EN
        BEGIN:VTODO
        DTSTAMP:20261122T000000Z
        SUMMARY:one
        UID:a1@reminderd
        END:VTODO
        END:VCALENDAR
        </C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    /// Xandikos answers a PROPFIND of a missing collection with 207 and a 404 inside, with an
    /// absolute href.
    static let xandikosMissingCollection = """
        <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>http://127.0.0.1:18802/user/calendars/nothere/</ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response></ns0:multistatus>
        """

    static let radicaleAlreadyThere = """
        <?xml version='1.0' encoding='utf-8'?>
        <error xmlns="DAV:"><resource-must-be-null /></error>
        """
}
