import DAVXML
import ReminderCore

extension FuzzTargets {
    /// A WebDAV answer as a server (or whatever sits in between) hands it over: a refusal names
    /// a line of the document; a tree that parses, written out again with its namespaces
    /// declared, parses back to the same tree.
    public static func xml(_ bytes: [UInt8]) {
        switch XMLTree.parse(bytes) {
        case .failure(let error):
            let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            precondition(!error.detail.isEmpty, "a refusal without a reason")
            precondition((1...lines).contains(error.line), "error line \(error.line) outside the document's \(lines)")
        case .success(let root):
            var written = #"<?xml version="1.0" encoding="UTF-8"?>"#
            write(root, into: &written)
            let again = XMLTree.parse(Array(written.utf8))
            precondition(again == .success(root), "\(root) written as \(written) reads as \(again)")
        }
    }

    /// Each element declares its own namespace: `<p:name xmlns:p="…">`, or `xmlns=""` for none.
    private static func write(_ element: XMLElement, into out: inout String) {
        let tag = element.namespace.isEmpty ? element.name : "p:\(element.name)"
        let namespace = markupEscaped(element.namespace, attributeValue: true)
        out += "<\(tag) " + (element.namespace.isEmpty ? #"xmlns="""# : #"xmlns:p=""# + namespace + "\"")
        for (name, value) in element.attributes.sorted(by: { $0.key < $1.key }) {
            out += " \(name)=\"\(markupEscaped(value, attributeValue: true))\""
        }
        out += ">" + markupEscaped(element.text, attributeValue: true)
        for child in element.children { write(child, into: &out) }
        out += "</\(tag)>"
    }
}
