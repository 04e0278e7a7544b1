import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

/// What the shell completion scripts offer (ArgumentParser's `---completion` entry point calls
/// these): kinds and durations are fixed lists; item ids and card names come from the daemon,
/// card ids and subscription templates from the catalog. A completion must never print an error
/// or keep the shell waiting, so every failure (no daemon, a bad catalog) offers nothing.
enum Completions {
    static let kinds = ["benefit", "subscription", "coupon", "fee", "rebuy"]
    static let durations = ["15m", "30m", "1h", "2h", "4h", "1d", "2d", "1w"]
    /// What `snooze ID` takes: a duration, or a time after `until`, or `tomorrow`.
    static let snoozes = durations + ["until", "tomorrow"]

    /// The daemon's items, within a second; none when it is not running or slow.
    static func items() -> [ItemView] {
        let request = ReminderRequest.list(.init(kind: nil, all: true))
        guard let client = try? VarlinkClient(path: DaemonClient.socketPath, timeoutSeconds: 1),
            case .success(let reply)? = try? client.call(request.method.qualifiedName, request.parameters),
            let list = try? ListReply(parameters: reply)
        else { return [] }
        return list.items
    }

    /// What names an item: its id and its title (the daemon takes either), those that start
    /// with what is typed, case and accents aside for titles.
    @Sendable static func itemIds(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        itemNames(items(), prefix: prefix, bash: environmentVariable("SAP_SHELL") == "bash")
    }

    /// For bash, a title is escaped twice: once as the word it is on the command line
    /// (`Uber\ Cash`), once more for the expansion `compgen -W` puts each offered word through.
    /// zsh and fish quote what they insert themselves.
    static func itemNames(_ items: [ItemView], prefix: String, bash: Bool) -> [String] {
        let typed = bash ? String(prefix.filter { $0 != "\\" }) : prefix
        let folded = NameFolding.fold(typed)
        let ids = items.map(\.id).filter { $0.hasPrefix(typed) }
        // A title with a control or direction character is not offered: the shell would show it raw.
        let titles = Set(items.map(\.title).filter { NameFolding.fold($0).hasPrefix(folded) && shown($0) == $0 })
            .sorted()
        return ids + (bash ? titles.map(bashWord) : titles)
    }

    /// `McDonald's BOGO` as `compgen -W` must be given it to offer `McDonald\'s\ BOGO`.
    static func bashWord(_ title: String) -> String {
        let special = " '\"\\$`&|;<>()*?[]{}!#~\t"
        let word = title.map { special.contains($0) ? "\\\($0)" : String($0) }.joined()
        return word.map { "\\'\"$`".contains($0) ? "\\\($0)" : String($0) }.joined()
    }

    @Sendable static func cardNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let names = Set(items().compactMap(\.card).filter { !$0.isEmpty })
        return names.sorted().filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// `add KIND`: the kinds, and `card`.
    static let addKinds = kinds + ["card"]

    /// `add card ID`: the catalog's card ids; for any other kind, no suggestion (a title is free).
    @Sendable static func addTitle(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard words.contains("card") else { return [] }
        return cardIds(words, index, prefix)
    }

    @Sendable static func cardIds(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let catalog = try? Catalog.load() else { return [] }
        return catalog.cards.map(\.id).filter { $0.hasPrefix(prefix) }
    }

    @Sendable static func templates(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let catalog = try? Catalog.load() else { return [] }
        return catalog.subscriptions.map(\.id).filter { $0.hasPrefix(prefix) }
    }
}
