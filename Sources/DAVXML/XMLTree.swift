/// One element of a parsed XML answer, named by namespace URI and local name, so `d:href`,
/// `D:href` and a default-namespace `href` are all the same element (servers differ in prefixes).
public struct XMLElement: Sendable, Equatable {
    public let namespace: String
    public let name: String
    /// Attributes by their name as written, prefix and all (`name` in `<C:comp name="VTODO"/>`, as
    /// XMLParser gave them); namespace declarations left out.
    public let attributes: [String: String]
    public internal(set) var children: [XMLElement]
    /// The element's own character data, CDATA included (calendar data comes as either).
    public internal(set) var text: String

    public init(namespace: String, name: String, attributes: [String: String], children: [XMLElement], text: String) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

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

    /// The text without the white space (XML's: space, tab, CR, LF) around it.
    public var trimmedText: String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// Where and why an XML document did not parse.
public struct XMLSyntaxError: Error, Equatable, Sendable {
    public let line: Int
    public let detail: String

    public init(line: Int, detail: String) {
        self.line = line
        self.detail = detail
    }
}

/// Parses a whole document into `XMLElement`s with `XMLReader`, namespaces resolved; a DOCTYPE
/// is refused, so no entity is ever declared, expanded or fetched.
public enum XMLTree {
    /// A 64 MiB answer of empty tags would be 16 million elements, about 1 GiB as a tree; a real
    /// one holds about 7 per calendar item, so this allows some 280,000 items and caps the tree
    /// near 130 MiB.
    public static let maximumElements = 2_000_000

    /// `maximumElements` is for tests; answers get the reader's own limit.
    public static func parse(
        _ bytes: [UInt8], maximumElements: Int = XMLTree.maximumElements
    ) -> Result<XMLElement, XMLSyntaxError> {
        guard bytes.contains(where: { !XMLReader.isSpace($0) }) else {
            return .failure(XMLSyntaxError(line: 1, detail: "the document is empty"))
        }
        var reader = XMLReader(bytes, maximumElements: maximumElements)
        do {
            return .success(try reader.document())
        } catch {
            return .failure(error)
        }
    }
}
