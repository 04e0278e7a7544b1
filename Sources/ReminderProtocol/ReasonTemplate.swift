import ReminderCore
import ReminderJSON

extension VarlinkError {
    /// The optional parameter beside an error's English `reason` that holds it as a template
    /// (`Wording.wire`), for the side showing it to translate; absent for a reason that is not
    /// translated, and from a daemon older than it.
    public static let reasonTemplateKey = "reasonTemplate"

    /// `parameters` with `reason` in English and, when it is translatable, its template.
    public static func reasonParameters(_ reason: Wording, _ parameters: [String: JSONValue] = [:])
        -> [String: JSONValue]
    {
        var all = parameters
        all["reason"] = .string(reason.english)
        all[reasonTemplateKey] = reason.template
        return all
    }

    /// The `reason` parameter in the chosen language (`Translation`): its template translated when
    /// one came and says the same in English, else the English as sent; nil without a reason.
    public var translatedReason: String? {
        guard case .string(let english)? = parameters["reason"] else { return nil }
        return Wording(template: parameters[Self.reasonTemplateKey])?.translated(saying: english) ?? english
    }

    /// `description` with the reason in the chosen language.
    public var translatedDescription: String {
        guard let reason = translatedReason else { return description }
        var parameters = self.parameters
        parameters["reason"] = .string(reason)
        return VarlinkError(name: name, parameters: parameters).description
    }
}

/// A template as a reply's optional field carries it (`ExplainReply.Step`'s `ruleTemplate`):
/// only translatable wordings are written there, verbatim text has none.
extension Wording: WireValue {
    public var wire: JSONValue { template ?? .string(english) }
    public init?(wire: JSONValue) { self.init(template: wire) }
    public static var expected: String { "a template object" }
}
