import DAVXML
import FoundationEssentials

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
        let head = Array(response.body.prefix(4096))
        if let open = find("<title>", in: head, from: 0), let close = find("</title>", in: head, from: open + 7) {
            return oneLine(String(decoding: head[(open + 7)..<close], as: UTF8.self))
        }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<?xml") || text.contains("multistatus") || text.contains(":error") { return "" }
        return oneLine(text)
    }

    /// Where `tag` (lowercase ASCII) first starts in `bytes` at or after `start`, in any case.
    private static func find(_ tag: String, in bytes: [UInt8], from start: Int) -> Int? {
        let tag = Array(tag.utf8)
        guard bytes.count >= tag.count, start <= bytes.count - tag.count else { return nil }
        return (start...(bytes.count - tag.count)).first { offset in
            tag.indices.allSatisfy { index in
                let byte = bytes[offset + index]
                return (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == tag[index]
            }
        }
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
