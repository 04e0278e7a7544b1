import DAVXML
import Foundation

/// Reading an answer's body as XML, and the short excerpt of a body that goes into an error
/// message (an HTML page's title rather than its markup).
enum ResponseText {
    static func xml(_ response: HTTPResponse, request: String) throws(DAVError) -> XMLElement {
        let contentType = response.header("content-type") ?? ""
        if contentType.lowercased().contains("html") || looksLikeHTML(response.body) {
            throw .notXML(request: request, contentType: contentType, excerpt: excerpt(response))
        }
        switch XMLTree.parse(response.body) {
        case .success(let root): return root
        case .failure(let error): throw .malformedXML(request: request, line: error.line, detail: error.detail)
        }
    }

    /// At most 80 characters: the `<title>` of an HTML page, else the body's start on one line.
    static func excerpt(_ response: HTTPResponse) -> String {
        let text = String(decoding: response.body.prefix(4096), as: UTF8.self)
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            return oneLine(String(text[open.upperBound..<close.lowerBound]))
        }
        if text.contains("<?xml") || text.contains("multistatus") || text.contains(":error") { return "" }
        return oneLine(text)
    }

    private static func oneLine(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > 80 ? String(words.prefix(79)) + "…" : words
    }

    private static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        let start = String(decoding: body.prefix(256), as: UTF8.self).lowercased()
        let trimmed = start.drop { $0.isWhitespace }
        return trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html")
    }
}
