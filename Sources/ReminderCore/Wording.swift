import ReminderJSON

/// A sentence one program writes and another shows, kept as its catalog template and arguments
/// so that whoever shows it translates it into its own language: the daemon's reasons inside
/// errors and `explain`'s rule and result cells, which reminderctl writes in its environment's
/// language and a refusal pop-up in the daemon's. The English text (`english`) stays what the
/// varlink interface carries as before; the template travels beside it (`template`), optional, so
/// `--json`, an older client and an older daemon are unchanged.
///
/// Each template is written where the daemon makes it through the no-op `N_` (or `N_n` for a
/// plural), which `scripts/update-po.sh` extracts. Arguments are text shown as it is — user
/// input, ids, RFC 3339 times (reminderctl writes those as its tables do, `HumanTime.inText`; a
/// pop-up shows them as sent) — or wordings of their own, translated in turn.
public struct Wording: Sendable, Equatable, CustomStringConvertible {
    public indirect enum Argument: Sendable, Equatable {
        case text(String)
        case wording(Wording)
    }

    /// The msgid; nil for text that is never translated (`verbatim`).
    let format: String?
    /// The plural msgid and the count choosing the form, for `N_n`'s templates.
    let plural: (String, Int)?
    let arguments: [Argument]
    /// The text itself when `format` is nil.
    let text: String

    /// `format` (marked `N_("…")`) with `arguments` in its `%1$s`… placeholders.
    public init(_ format: String, _ arguments: Argument...) {
        (self.format, self.plural, self.arguments, self.text) = (format, nil, arguments, "")
    }

    /// The form of `forms` (marked `N_n("…", "…")`) for `count`, with `arguments`.
    public init(_ forms: (String, String), count: Int, _ arguments: Argument...) {
        (format, plural, self.arguments, text) = (forms.0, (forms.1, count), arguments, "")
    }

    /// Text shown as it is in every language: what another program reads (reminderd-sync), or
    /// words from outside (a server's or the store's own error).
    public static func verbatim(_ text: String) -> Wording {
        Wording(format: nil, plural: nil, arguments: [], text: text)
    }

    private init(format: String?, plural: (String, Int)?, arguments: [Argument], text: String) {
        (self.format, self.plural, self.arguments, self.text) = (format, plural, arguments, text)
    }

    /// The text in English, as the varlink interface and the journal carry it.
    public var english: String { Translation.inEnglish { translated } }

    /// The text in the chosen language (`Translation`), arguments translated in turn.
    public var translated: String {
        guard let format else { return text }
        let template = plural.map { Translation.plural(format, $0.0, $0.1) } ?? Translation.text(format)
        return template.filled(
            arguments.map {
                switch $0 {
                case .text(let text): text
                case .wording(let wording): wording.translated
                }
            })
    }

    public var description: String { english }

    public static func == (a: Wording, b: Wording) -> Bool {
        a.format == b.format && a.plural?.0 == b.plural?.0 && a.plural?.1 == b.plural?.1 && a.arguments == b.arguments
            && a.text == b.text
    }

    /// `{"format": …, "arguments": […]}` (with `"plural"` and `"count"` for a plural), each
    /// argument a string or such an object; nil for verbatim text, which needs nothing beside
    /// the English.
    public var template: JSONValue? {
        guard let format else { return nil }
        var fields: [String: JSONValue] = [
            "format": .string(format),
            "arguments": .array(
                arguments.map {
                    switch $0 {
                    case .text(let text): .string(text)
                    case .wording(let wording): wording.template ?? .string(wording.text)
                    }
                }),
        ]
        if let plural {
            fields["plural"] = .string(plural.0)
            fields["count"] = .integer(Int64(plural.1))
        }
        return .object(fields)
    }

    /// Reads `template`'s form; nil when `value` is not one (an absent field, another daemon's shape).
    public init?(template value: JSONValue?) {
        guard case .object(let fields)? = value, case .string(let format)? = fields["format"],
            case .array(let elements)? = fields["arguments"], elements.count <= 9
        else { return nil }
        var arguments: [Argument] = []
        for element in elements {
            if case .string(let text) = element {
                arguments.append(.text(text))
            } else if let nested = Wording(template: element) {
                arguments.append(.wording(nested))
            } else {
                return nil
            }
        }
        var plural: (String, Int)?
        if case .string(let form)? = fields["plural"] {
            guard case .integer(let count)? = fields["count"] else { return nil }
            plural = (form, Int(clamping: count))
        }
        self.init(format: format, plural: plural, arguments: arguments, text: "")
    }

    /// The text in the chosen language when this wording says `english` in English, else
    /// `english` itself: a template that does not match the English sent beside it (a daemon
    /// of another version) is not trusted to say the same.
    public func translated(saying english: String) -> String {
        self.english == english ? translated : english
    }

    /// The argument at `index` (0 for `%1$s`) when it is a wording of its own: "dropped: %1$s"'s why.
    public func nested(_ index: Int) -> Wording? {
        guard arguments.indices.contains(index), case .wording(let wording) = arguments[index] else { return nil }
        return wording
    }

    /// The template's English msgid, nil for verbatim text.
    public var msgid: String? { format }
}

/// `msgid` unchanged: marks a template that is translated where it is shown (`Wording`), for
/// `scripts/update-po.sh` to extract (gettext's `N_`).
public func N_(_ msgid: String) -> String { msgid }

/// The singular and plural templates unchanged, extracted as one plural entry (`Wording`).
public func N_n(_ singular: String, _ plural: String) -> (String, String) { (singular, plural) }
