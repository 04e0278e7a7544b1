import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One element of a parsed XML answer, named by namespace URI and local name, so `d:href`,
/// `D:href` and a default-namespace `href` are all the same element (servers differ in prefixes).
public struct XMLElement: Sendable, Equatable {
    public let namespace: String
    public let name: String
    /// Attributes by their local name (`<C:comp name="VTODO"/>`).
    public let attributes: [String: String]
    public internal(set) var children: [XMLElement]
    /// The element's own character data, CDATA included (calendar data comes as either).
    public internal(set) var text: String

    public func first(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    public func all(_ namespace: String, _ name: String) -> [XMLElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The first element down a path of DAV: (or other) names, e.g. ["propstat", "prop"].
    public func path(_ namespace: String, _ names: String...) -> XMLElement? {
        names.reduce(Optional(self)) { element, name in element?.first(namespace, name) }
    }

    public var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Where and why an XML document did not parse.
public struct XMLSyntaxError: Error, Equatable, Sendable {
    public let line: Int
    public let detail: String
}

/// Parses a whole document into `XMLElement`s with FoundationXML's `XMLParser` (libxml2 below),
/// namespaces resolved and external entities never fetched.
public enum XMLTree {
    public static func parse(_ bytes: [UInt8]) -> Result<XMLElement, XMLSyntaxError> {
        guard bytes.contains(where: { !Self.isSpace($0) }) else {
            return .failure(XMLSyntaxError(line: 1, detail: "the document is empty"))
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        let parsed = parser.parse()
        guard parsed, let root = builder.root else {
            let line = parser.lineNumber
            // An error on the last line, with elements still open, is a cut-off answer: say so
            // rather than quote libxml2's code for whichever token was cut.
            let lastLine = bytes.split(separator: 0x0A).filter { $0.contains { !isSpace($0) } }.count
            let code = (parser.parserError as NSError?)?.code ?? 0
            let detail =
                !builder.stack.isEmpty && line >= lastLine
                ? "the document ends before its elements are closed"
                : "not well-formed XML (libxml2 error \(code), column \(parser.columnNumber))"
            return .failure(XMLSyntaxError(line: line, detail: detail))
        }
        return .success(root)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}

/// XMLParser's delegate: keeps a stack of open elements and closes them into their parents.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLElement] = []
    var root: XMLElement?
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        stack.append(
            XMLElement(namespace: namespaceURI ?? "", name: elementName, attributes: attributes, children: [], text: "")
        )
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}
