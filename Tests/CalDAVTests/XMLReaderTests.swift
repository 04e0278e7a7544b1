import DAVXML
import Testing

/// The XML reader that replaced FoundationXML: what WebDAV answers hold, and what a hostile or
/// broken answer gets (an error naming the line and byte, never a crash or an expansion).
@Suite struct XMLReaderTests {
    func parse(_ text: String) throws -> XMLElement { try XMLTree.parse(Array(text.utf8)).get() }

    func error(_ text: String) -> XMLSyntaxError? {
        guard case .failure(let error) = XMLTree.parse(Array(text.utf8)) else { return nil }
        return error
    }

    @Test func prefixesAndDefaultNamespacesResolve() throws {
        let root = try parse(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <response><href>/a/</href><C:calendar-data>x</C:calendar-data>
                <x:y xmlns:x="urn:other" xmlns="urn:inner"><z/></x:y></response>
            </multistatus>
            """)
        #expect(root.namespace == "DAV:" && root.name == "multistatus")
        let response = try #require(root.first("DAV:", "response"))
        #expect(response.first("DAV:", "href")?.text == "/a/")
        #expect(response.first("urn:ietf:params:xml:ns:caldav", "calendar-data")?.text == "x")
        let other = try #require(response.first("urn:other", "y"))
        #expect(other.children.map(\.namespace) == ["urn:inner"])
        // A prefix declared on an element is gone after it closes; undeclared, it reads as no
        // namespace (libxml2 warned and went on, so one odd property does not sink the answer).
        let scoped = try parse("<a><p:b xmlns:p=\"u\"/><p:c/><q:d xmlns:q=''/></a>")
        #expect(scoped.children.map { "\($0.namespace) \($0.name)" } == ["u b", " c", " d"])
        // An unprefixed element with no default namespace has none; xmlns="" takes the default away.
        #expect(try parse("<a xmlns='u'><b xmlns=''/></a>").children[0].namespace == "")
    }

    @Test func attributesByNameAsWrittenWithoutDeclarations() throws {
        let root = try parse(#"<C:comp xmlns:C="urn:c" name="VTODO" C:x='1 &amp;&#x9;2' y:z=''/>"#)
        #expect(root.attributes == ["name": "VTODO", "C:x": "1 &\t2", "y:z": ""])
        #expect(error(#"<a b="1" b="2"/>"#)?.detail.contains("attribute b appears twice") == true)
        #expect(error(#"<a b="<"/>"#)?.detail.contains("< inside an attribute value") == true)
    }

    @Test func entitiesAndCharacterReferences() throws {
        let root = try parse("<a>&lt;&gt;&amp;&quot;&apos; &#65;&#x42;&#x1F600;</a>")
        #expect(root.text == "<>&\"' AB😀")
        let unknown = try #require(error("<a>&nbsp;</a>"))
        #expect(
            unknown.detail
                == "not well-formed XML at byte offset 3: unknown entity &nbsp; (only &lt; &gt; &amp; &quot; &apos; and &#…; are read)"
        )
        #expect(error("<a>&#0;</a>")?.detail.contains("&#0; is not a character XML allows") == true)
        #expect(error("<a>&#xD800;</a>")?.detail.contains("is not a character XML allows") == true)
        #expect(error("<a>AT&T</a>")?.detail.contains("an & that starts no entity reference") == true)
    }

    @Test func cdataCommentsAndInstructions() throws {
        let root = try parse(
            "<?xml version='1.0'?><!-- before --><?style x?><a>one<![CDATA[<b>&amp;]]>two<!-- - --><?pi ?></a><!-- after -->"
        )
        #expect(root.text == "one<b>&amp;two")
        #expect(root.children.isEmpty)
        // An instruction without data (FoundationXML's XMLParser crashed on `<?xt?>`).
        #expect(try parse("<?xt?><a><?empty?></a>").name == "a")
        #expect(try parse("<?xml version='1.0' standalone='yes'?><a/>").name == "a")
        #expect(
            error("<?xml encoding='utf-8'?><a/>")?.detail.hasSuffix("encoding out of place in the XML declaration")
                == true)
        #expect(
            error("<?xml version='1.0'encoding='utf-8'?><a/>")?.detail.hasSuffix(
                "a space between the XML declaration's fields") == true)
        #expect(error("<?ef>x?><a/>")?.detail.hasSuffix("expected a space after <?ef") == true)
        #expect(error("<a><!-- a -- b --></a>")?.detail == "not well-formed XML at byte offset 10: -- inside a comment")
        #expect(
            error("<?xml version='1.0' x='1'?><a/>")?.detail.hasSuffix("x out of place in the XML declaration") == true)
    }

    @Test func lineEndsReadAsLineFeeds() throws {
        #expect(try parse("<a>1\r\n2\r3<![CDATA[\r\n4]]>&#13;</a>").text == "1\n2\n3\n4\r")
        #expect(try parse("<a b='x\r\ny'/>").attributes["b"] == "x y")
    }

    @Test func trimmedTextDropsXMLWhiteSpaceOnly() throws {
        #expect(try parse("<a>\n\t \"e1\" \r\n</a>").trimmedText == "\"e1\"")
        #expect(try parse("<a> \u{A0}x\u{A0} </a>").trimmedText == "\u{A0}x\u{A0}")
        #expect(try parse("<a>  </a>").trimmedText == "")
    }

    @Test func malformedInputNamesLineAndByte() {
        #expect(
            error("<a>\n<b></c>\n</a>")
                == XMLSyntaxError(line: 2, detail: "not well-formed XML at byte offset 7: </c> where </b> was expected")
        )
        #expect(error("<a/><b/>")?.detail.hasSuffix("a second root element") == true)
        #expect(error("text<a/>")?.detail.hasSuffix("content before the root element") == true)
        #expect(error("<a/>tail")?.detail.hasSuffix("content after the root element") == true)
        #expect(error("<a><1/></a>")?.detail.hasSuffix("expected a name after <") == true)
        #expect(error("<a b/>")?.detail.hasSuffix("attribute b has no = value") == true)
        #expect(error("<a\u{1}/>")?.detail.contains("U+0001, a character XML does not allow") == true)
        #expect(error("<?xml version='1.0' encoding='ISO-8859-1'?><a/>")?.detail.contains("only UTF-8") == true)
        #expect(
            error("<a/><?xml version='1.0'?>")?.detail.contains("XML declaration not at the document's start") == true)
        #expect(
            error("<?xml version='1.0'?>\n<!-- only -->\n")
                == XMLSyntaxError(line: 2, detail: "the document has no root element"))
        guard case .failure(let notUTF8) = XMLTree.parse([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]) else {
            Issue.record("bytes that are not UTF-8 parsed")
            return
        }
        #expect(notUTF8.detail == "not well-formed XML at byte offset 3: bytes that are not UTF-8")
    }

    @Test func cutOffDocumentsEndBeforeTheirElementsClose() {
        let whole =
            "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a/</d:href></d:response></d:multistatus>"
        // Cut at every byte inside the root element: each is "ends before", on the line of the cut.
        for length in 23..<whole.utf8.count {
            let cut = Array(whole.utf8.prefix(length))
            guard case .failure(let error) = XMLTree.parse(cut) else {
                Issue.record("cut at \(length) parsed")
                continue
            }
            #expect(error == XMLSyntaxError(line: 2, detail: "the document ends before its elements are closed"))
        }
        #expect(error("<a><!-- open")?.detail == "the document ends before its elements are closed")
        #expect(error("<!-- open")?.detail == "the document ends inside a comment")
    }

    @Test func aDoctypeIsRefusedSoNoEntityExpands() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <lolz>&lol2;</lolz>
            """
        #expect(
            error(laughs)
                == XMLSyntaxError(
                    line: 2, detail: "a DOCTYPE at byte offset 22 is refused (entities are never declared or expanded)")
        )
        let external = #"<!DOCTYPE a SYSTEM "file:///etc/passwd"><a>&xxe;</a>"#
        #expect(error(external)?.detail.hasPrefix("a DOCTYPE at byte offset 0 is refused") == true)
        #expect(error("<a><!DOCTYPE a></a>")?.detail.contains("DOCTYPE") == true)
    }

    @Test func nestingBeyondTheLimitIsRefusedWithoutRecursion() throws {
        let allowed = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        var depth = 0
        var element: XMLElement? = try parse(allowed)
        while let current = element {
            depth += 1
            element = current.children.first
        }
        #expect(depth == 256)
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(
            error(deep)
                == XMLSyntaxError(
                    line: 1, detail: "not well-formed XML at byte offset 768: elements nested deeper than 256"))
    }

    /// A hostile server's answer of millions of empty elements is refused before its tree takes
    /// memory many times its size.
    @Test func moreElementsThanTheLimitAreRefused() throws {
        let limit = 1_000
        let allowed = "<a>" + String(repeating: "<b/>", count: limit - 1) + "</a>"
        #expect(try XMLTree.parse(Array(allowed.utf8), maximumElements: limit).get().children.count == limit - 1)
        let over = "<a>" + String(repeating: "<b/>", count: limit) + "</a>"
        guard case .failure(let error) = XMLTree.parse(Array(over.utf8), maximumElements: limit) else {
            Issue.record("\(limit + 1) elements were read")
            return
        }
        #expect(
            error
                == XMLSyntaxError(
                    line: 1, detail: "not well-formed XML at byte offset \(3 + 4 * (limit - 1)): more than \(limit) elements"))
    }

    /// Many attributes on one tag, or many namespace declarations under deep nesting, cost time
    /// in proportion to the answer, not its square (a 64 MiB answer is allowed). Told by the ratio
    /// of two sizes' times, each the best of three runs taken in turns, not by a wall-clock limit
    /// that a loaded machine misses: eight times the input takes about eight times as long when
    /// linear, sixty-four times when quadratic; the bound between them leaves room for a machine
    /// shared with other builds (a 4× step with a bound of 8 once measured 10× under such load).
    @Test func manyAttributesAndDeclarationsTakeLinearTime() throws {
        func wide(_ count: Int) -> String { "<a\((0..<count).map { " a\($0)=''" }.joined())/>" }
        func deep(_ count: Int) -> String {
            let declarations = (0..<count).map { " xmlns:p\($0)='urn:\($0)'" }.joined()
            let nested = (0..<255).map { "<p\($0):b xmlns:q\($0)='urn:q'>" }.joined()
            let closing = (0..<255).reversed().map { "</p\($0):b>" }.joined()
            return "<a\(declarations)>\(nested)\(closing)</a>"
        }
        #expect((try? parse(wide(40_000)))?.attributes.count == 40_000)
        #expect((try? parse(deep(40_000)))?.children.first?.namespace == "urn:0")
        for (shape, document) in [("attributes", wide), ("declarations under 255 levels", deep)] {
            let small = document(5_000)
            let large = document(40_000)
            var best = (small: Duration.seconds(1_000), large: Duration.seconds(1_000))
            for _ in 0..<3 {
                best.small = min(best.small, ContinuousClock().measure { _ = try? parse(small) })
                best.large = min(best.large, ContinuousClock().measure { _ = try? parse(large) })
            }
            let ratio = best.large / best.small
            #expect(ratio < 24, "40,000 \(shape) took \(ratio)× as long as 5,000 (\(best.large) against \(best.small))")
        }
    }
}
