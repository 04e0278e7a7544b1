/// Text made safe inside markup: `&`, `<` and `>` as references. The one escaper for a pop-up's
/// body (servers that interpret it as markup), the XML bodies the CalDAV client sends, and the
/// fuzz target's XML writer.
///
/// `attributeValue`: also `"` as a reference, and CR, LF and tab as character references, so an
/// attribute value keeps them and CR is not read as an end of line; this form goes by Unicode
/// scalar, the plain one by Character (a `<` carrying a combining mark is one Character that is
/// not `<`, and stays as it is), each as its callers have always written it.
public func markupEscaped(_ text: String, attributeValue: Bool = false) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    guard attributeValue else {
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "\r", "\n", "\t": out += "&#\(scalar.value);"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
