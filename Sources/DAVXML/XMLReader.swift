/// A small XML 1.0 reader for WebDAV/CalDAV answers, in place of FoundationXML's `XMLParser`
/// (which brought libxml2, full Foundation and ICU into reminderd-sync). It reads what a
/// multistatus answer holds: the XML declaration (UTF-8 only), elements whose prefixed and default
/// namespaces are resolved, attributes, text, CDATA, the five predefined entities and numeric
/// character references; comments and processing instructions are skipped. A DOCTYPE is refused,
/// so no entity can be declared (no billion laughs, no external fetch), and elements nest at most
/// `maximumDepth` deep. The reader is iterative, so hostile input cannot exhaust the stack.
struct XMLReader {
    /// libxml2's own default limit; CalDAV answers nest about 7 deep.
    static let maximumDepth = 256
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    let bytes: [UInt8]
    var at = 0
    var open: [OpenElement] = []
    /// `XMLTree.maximumElements`, or fewer in tests.
    private let maximumElements: Int
    /// Elements started so far, against `maximumElements`.
    private var elementCount = 0
    /// Each namespace prefix's declarations in the open elements, innermost last ("" is the
    /// default namespace): pushed by a start tag and popped by its end, so a declaration costs
    /// the same however many are in scope.
    private var bindings: [String: [String]] = [:]

    /// An element whose end tag is still to come.
    struct OpenElement {
        let qualifiedName: ArraySlice<UInt8>
        var element: XMLElement
        var text: [UInt8] = []
        /// The prefixes this element declares, popped from `bindings` when it closes.
        let declared: [String]
    }

    init(_ bytes: [UInt8], maximumElements: Int) {
        self.bytes = bytes
        self.maximumElements = maximumElements
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The root element, after the prolog (declaration, comments, instructions) and before the
    /// trailing comments and instructions.
    mutating func document() throws(XMLSyntaxError) -> XMLElement {
        try checkCharacters()
        if starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }  // a UTF-8 byte order mark
        if starts(with: "<?xml"), at + 5 < bytes.count,
            Self.isSpace(bytes[at + 5]) || bytes[at + 5] == UInt8(ascii: "?")
        {
            try declaration()
        }
        var root: XMLElement?
        while true {
            skipSpace()
            guard at < bytes.count else { break }
            if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<?") {
                try instruction()
            } else if starts(with: "<!DOCTYPE") {
                throw refusedDoctype()
            } else if bytes[at] != UInt8(ascii: "<") || starts(with: "<!") || starts(with: "</") {
                throw malformed(root == nil ? "content before the root element" : "content after the root element")
            } else if root != nil {
                throw malformed("a second root element")
            } else {
                root = try element()
            }
        }
        guard let root else {
            throw XMLSyntaxError(line: line(at: lastContentByte), detail: "the document has no root element")
        }
        return root
    }

    /// One element with all it holds, read without recursion.
    private mutating func element() throws(XMLSyntaxError) -> XMLElement {
        if let root = try startTag() { return root }
        while true {
            guard at < bytes.count else { throw endsBefore() }
            switch bytes[at] {
            case UInt8(ascii: "<"):
                if starts(with: "</") {
                    if let root = try endTag() { return root }
                } else if starts(with: "<!--") {
                    try comment()
                } else if starts(with: "<![CDATA[") {
                    try cdata()
                } else if starts(with: "<?") {
                    try instruction()
                } else if starts(with: "<!DOCTYPE") {
                    throw refusedDoctype()
                } else if starts(with: "<!") {
                    throw malformed("markup <! that is neither a comment nor CDATA")
                } else if let root = try startTag() {
                    return root
                }
            case UInt8(ascii: "&"):
                let scalar = try reference()
                Unicode.UTF8.encode(scalar) { open[open.count - 1].text.append($0) }
            default:
                let start = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "<"), bytes[at] != UInt8(ascii: "&") { at += 1 }
                appendText(bytes[start..<at])
            }
        }
    }

    /// `<name attr="value" …>` or `<name … />`: pushes the element; returns it when a
    /// self-closed element was the root.
    private mutating func startTag() throws(XMLSyntaxError) -> XMLElement? {
        let tagStart = at
        at += 1
        let qualifiedName = try name(after: "<")
        var raw: [(name: ArraySlice<UInt8>, value: String)] = []
        var seen: Set<ArraySlice<UInt8>> = []
        var selfClosing = false
        while true {
            let spaced = skipSpace()
            guard at < bytes.count else { throw endsBefore() }
            if bytes[at] == UInt8(ascii: ">") {
                at += 1
                break
            }
            if bytes[at] == UInt8(ascii: "/") {
                guard at + 1 < bytes.count else { throw endsBefore() }
                guard bytes[at + 1] == UInt8(ascii: ">") else {
                    throw malformed("/ not followed by > in <\(text(qualifiedName))>")
                }
                at += 2
                selfClosing = true
                break
            }
            guard spaced else { throw malformed("expected a space, > or /> in <\(text(qualifiedName))>") }
            let attributeStart = at
            let attribute = try name(after: "<\(text(qualifiedName)) ")
            skipSpace()
            guard at < bytes.count else { throw endsBefore() }
            guard bytes[at] == UInt8(ascii: "=") else { throw malformed("attribute \(text(attribute)) has no = value") }
            at += 1
            skipSpace()
            let value = try attributeValue()
            guard seen.insert(attribute).inserted else {
                throw malformed("attribute \(text(attribute)) appears twice", at: attributeStart)
            }
            raw.append((attribute, value))
        }
        guard open.count < Self.maximumDepth else {
            throw malformed("elements nested deeper than \(Self.maximumDepth)", at: tagStart)
        }
        elementCount += 1
        guard elementCount <= maximumElements else {
            throw malformed("more than \(maximumElements) elements", at: tagStart)
        }

        var declared: [String] = []
        for (attribute, value) in raw {
            if attribute.elementsEqual("xmlns".utf8) {
                bindings["", default: []].append(value)
                declared.append("")
            } else if attribute.starts(with: "xmlns:".utf8) {
                let prefix = text(attribute.dropFirst(6))
                guard !prefix.isEmpty, !prefix.contains(":") else {
                    throw malformed("\(text(attribute)) is not a namespace declaration", at: tagStart)
                }
                bindings[prefix, default: []].append(value)
                declared.append(prefix)
            }
        }
        let (prefix, local) = try split(qualifiedName, at: tagStart)
        let namespace = resolve(prefix)
        var attributes: [String: String] = [:]
        for (attribute, value) in raw
        where !attribute.elementsEqual("xmlns".utf8) && !attribute.starts(with: "xmlns:".utf8) {
            _ = try split(attribute, at: tagStart)
            attributes[text(attribute)] = value
        }
        let element = XMLElement(namespace: namespace, name: local, attributes: attributes, children: [], text: "")
        open.append(OpenElement(qualifiedName: qualifiedName, element: element, declared: declared))
        return selfClosing ? close() : nil
    }

    /// `</name>`: closes the innermost element; returns it when it was the root.
    private mutating func endTag() throws(XMLSyntaxError) -> XMLElement? {
        let tagStart = at
        at += 2
        let qualifiedName = try name(after: "</")
        skipSpace()
        guard at < bytes.count else { throw endsBefore() }
        guard bytes[at] == UInt8(ascii: ">") else { throw malformed("expected > to end </\(text(qualifiedName))") }
        at += 1
        let expected = open[open.count - 1].qualifiedName
        guard qualifiedName.elementsEqual(expected) else {
            throw malformed("</\(text(qualifiedName))> where </\(text(expected))> was expected", at: tagStart)
        }
        return close()
    }

    private mutating func close() -> XMLElement? {
        var closed = open.removeLast()
        for prefix in closed.declared { bindings[prefix]?.removeLast() }
        closed.element.text = String(decoding: closed.text, as: UTF8.self)
        if open.isEmpty { return closed.element }
        open[open.count - 1].element.children.append(closed.element)
        return nil
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>`: only UTF-8 (or its ASCII subset) is read. The
    /// fields are XML's, in its order (version first), as libxml2 required.
    private mutating func declaration() throws(XMLSyntaxError) {
        at += 5
        var fields = ["version", "encoding", "standalone"][...]
        while true {
            let spaced = skipSpace()
            guard at < bytes.count else { throw endsBefore() }
            if starts(with: "?>") {
                guard fields.first != "version" else { throw malformed("the XML declaration has no version") }
                at += 2
                return
            }
            guard spaced else { throw malformed("expected a space between the XML declaration's fields") }
            let valueStart = at
            let field = try name(after: "<?xml ")
            guard let index = fields.firstIndex(where: { field.elementsEqual($0.utf8) }),
                index == fields.startIndex || fields.first != "version"
            else {
                throw malformed("\(text(field)) out of place in the XML declaration", at: valueStart)
            }
            fields = fields[(index + 1)...]
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
                throw malformed("\(text(field)) has no = value in the XML declaration")
            }
            at += 1
            skipSpace()
            let value = try attributeValue()
            if field.elementsEqual("encoding".utf8),
                !["utf-8", "utf8", "us-ascii", "ascii"].contains(value.lowercased())
            {
                throw malformed("the encoding \(value) is not read (only UTF-8)", at: valueStart)
            }
        }
    }

    private mutating func comment() throws(XMLSyntaxError) {
        at += 4
        guard let end = find("--"), end + 2 < bytes.count else { throw endsBefore(inside: "a comment") }
        guard bytes[end + 2] == UInt8(ascii: ">") else { throw malformed("-- inside a comment", at: end) }
        at = end + 3
    }

    private mutating func instruction() throws(XMLSyntaxError) {
        let start = at
        at += 2
        let target = try name(after: "<?")
        if text(target).lowercased() == "xml" {
            throw malformed("an XML declaration not at the document's start", at: start)
        }
        guard at < bytes.count else { throw endsBefore(inside: "a processing instruction") }
        guard Self.isSpace(bytes[at]) || starts(with: "?>") else {
            throw malformed("expected a space after <?\(text(target))")
        }
        guard let end = find("?>") else { throw endsBefore(inside: "a processing instruction") }
        at = end + 2
    }

    private mutating func cdata() throws(XMLSyntaxError) {
        at += 9
        guard let end = find("]]>") else { throw endsBefore() }
        appendText(bytes[at..<end])
        at = end + 3
    }

    /// Character data, with XML's end-of-line handling: CR LF and a lone CR read as LF.
    private mutating func appendText(_ run: ArraySlice<UInt8>) {
        guard run.contains(0x0D) else {
            open[open.count - 1].text.append(contentsOf: run)
            return
        }
        var index = run.startIndex
        while index < run.endIndex {
            let byte = run[index]
            if byte == 0x0D {
                open[open.count - 1].text.append(0x0A)
                if index + 1 < run.endIndex, run[index + 1] == 0x0A { index += 1 }
            } else {
                open[open.count - 1].text.append(byte)
            }
            index += 1
        }
    }

    /// A quoted value, references replaced and white space normalised to spaces (XML §3.3.3).
    private mutating func attributeValue() throws(XMLSyntaxError) -> String {
        guard at < bytes.count else { throw endsBefore() }
        let quote = bytes[at]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw malformed("expected a quoted value")
        }
        at += 1
        var value: [UInt8] = []
        while true {
            guard at < bytes.count else { throw endsBefore() }
            let byte = bytes[at]
            switch byte {
            case quote:
                at += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw malformed("< inside an attribute value")
            case UInt8(ascii: "&"):
                let scalar = try reference()
                Unicode.UTF8.encode(scalar) { value.append($0) }
            case 0x0D:
                value.append(0x20)
                at += 1
                if at < bytes.count, bytes[at] == 0x0A { at += 1 }
            case 0x09, 0x0A:
                value.append(0x20)
                at += 1
            default:
                value.append(byte)
                at += 1
            }
        }
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`, `&#NNN;` and `&#xHHH;`: nothing else, since no
    /// DOCTYPE may declare an entity.
    private mutating func reference() throws(XMLSyntaxError) -> Unicode.Scalar {
        let start = at
        at += 1
        var end = at
        while end < bytes.count, end - at <= 32, bytes[end] != UInt8(ascii: ";"), !Self.isSpace(bytes[end]),
            bytes[end] != UInt8(ascii: "<"), bytes[end] != UInt8(ascii: "&")
        {
            end += 1
        }
        guard end < bytes.count else { throw endsBefore() }
        guard bytes[end] == UInt8(ascii: ";"), end > at else {
            throw malformed("an & that starts no entity reference (write &amp;)", at: start)
        }
        let body = bytes[at..<end]
        at = end + 1
        switch text(body) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard body.first == UInt8(ascii: "#") else {
            throw malformed(
                "unknown entity &\(text(body)); (only &lt; &gt; &amp; &quot; &apos; and &#…; are read)", at: start)
        }
        let hex = body.dropFirst().first == UInt8(ascii: "x")
        let digits = body.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, digits.count <= 8, let code = UInt32(text(digits), radix: hex ? 16 : 10),
            let scalar = Unicode.Scalar(code), Self.isXMLCharacter(code)
        else {
            throw malformed("&\(text(body)); is not a character XML allows", at: start)
        }
        return scalar
    }

    /// A name as XML spells one (letters, digits, `_ - . :` and anything beyond ASCII), not
    /// starting with a digit, `-` or `.`.
    private mutating func name(after context: String) throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        let start = at
        guard at < bytes.count else { throw endsBefore() }
        guard Self.startsName(bytes[at]) else { throw malformed("expected a name after \(context)") }
        while at < bytes.count, Self.continuesName(bytes[at]) { at += 1 }
        return bytes[start..<at]
    }

    /// `prefix:local` → ("prefix", "local"); `local` → ("", "local").
    private func split(_ qualifiedName: ArraySlice<UInt8>, at offset: Int) throws(XMLSyntaxError) -> (String, String) {
        guard let colon = qualifiedName.firstIndex(of: UInt8(ascii: ":")) else { return ("", text(qualifiedName)) }
        let local = qualifiedName[(colon + 1)...]
        guard colon > qualifiedName.startIndex, let first = local.first, Self.startsName(first),
            !local.contains(UInt8(ascii: ":"))
        else {
            throw malformed("\(text(qualifiedName)) is not a prefix:name", at: offset)
        }
        return (text(qualifiedName[..<colon]), text(local))
    }

    /// An element's namespace: its prefix's innermost declaration, the default namespace for
    /// none. An undeclared prefix reads as no namespace, as libxml2 let it (a warning, not an
    /// error), so one odd property does not make a whole answer unreadable.
    private func resolve(_ prefix: String) -> String {
        prefix == "xml" ? Self.xmlNamespace : bindings[prefix]?.last ?? ""
    }
}
