#if canImport(Glibc)
    import Glibc
#endif
import CIntl
import Synchronization

/// User-facing text through glibc's gettext (domain `reminderd`, catalogs in `po/`), for
/// `reminderctl` and the daemon alike.
///
/// Neither program calls `setlocale`: the daemon parses and writes numbers (varlink JSON, SQLite
/// text, config) on many threads, and a process-wide `LC_ALL` or `LC_NUMERIC` change would make
/// `strtod` read `12,5` under de_DE. Instead the chosen language is a `locale_t` holding only
/// `LC_MESSAGES`, installed with `uselocale` on the calling thread for the one `dgettext` call and
/// put back at once; glibc's gettext reads the thread's locale, so threads composing text in
/// different moments never see each other's choice half-made. A locale name that is not
/// installed, or `C`/`POSIX`, leaves every message its English msgid, byte for byte.
///
/// Calls stay extractable by `xgettext -L C --keyword=_t --keyword=_n:1,2` (scripts/update-po.sh), and
/// so do the templates marked `N_`/`N_n` that the side showing them translates (`Wording`):
/// literal arguments only, placeholders positional (`%1$s`, `%2$d`) so a translator can reorder
/// them and `msgfmt --check` compares them as c-format.
public enum Translation {
    static let domain = "reminderd"

    /// The chosen language's name as given (e.g. `ko_KR.UTF-8`), its `LC_MESSAGES` locale's
    /// address (0: English) and its date names (English without a catalog). Set at start and at
    /// `reload`, read by every translation.
    private static let chosen = Mutex<(name: String, locale: Int, dates: DateNames)>(("C", 0, .english))

    /// Binds the text domain to its catalogs: `$REMINDERD_LOCALEDIR` (the tests' build tree) or
    /// `share/locale` beside the executable's `bin` (`/usr/share/locale` for `/usr/bin/reminderd`),
    /// so a package or `scripts/install.sh` under any prefix finds its own `.mo` files.
    public static func bindCatalogs() {
        let directory = environmentValue("REMINDERD_LOCALEDIR") ?? installedLocaleDirectory()
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }

    /// The locale name the environment asks messages in: `LC_ALL`, else `LC_MESSAGES`, else
    /// `LANG` (POSIX's order), `C` when none is set. `LANGUAGE` is honoured by gettext itself.
    public static func environmentLocaleName() -> String {
        LocaleName.fromEnvironment(for: "LC_MESSAGES", environment: environmentValue) ?? "C"
    }

    /// Uses `name` (a locale name like `de_DE.UTF-8`) for messages from now on, in every thread.
    /// Returns false, and falls back to English, when the locale is not installed.
    /// A locale replaced at `reload` is not freed: a translation in another thread may still
    /// have it installed, and a language changes only when the user reloads.
    /// Dates are written with the locale's names only where a catalog speaks its language: a
    /// locale without one (fr_FR) keeps the English patterns, so it keeps the English names too.
    @discardableResult
    public static func choose(localeName name: String) -> Bool {
        let locale = newlocale(LC_MESSAGES_MASK, name, nil)
        chosen.withLock { $0 = (name, Int(bitPattern: locale), .english) }
        // The empty msgid answers the catalog's header, and itself without a catalog.
        let hasCatalog = !text("").isEmpty
        let dates = hasCatalog ? DateNames(localeNamed: name) ?? .english : .english
        chosen.withLock { $0.dates = dates }
        return locale != nil
    }

    /// The name of the chosen locale (`C` when none was chosen), for code that formats money and
    /// dates in the same language as the words around them.
    public static var localeName: String { chosen.withLock { $0.name } }

    /// The names dates are written with in the chosen language (`DateText`); English inside
    /// `inEnglish`.
    public static var dateNames: DateNames {
        pthread_getspecific(englishKey) == nil ? chosen.withLock { $0.dates } : .english
    }

    /// `msgid` in the chosen language.
    public static func text(_ msgid: String) -> String {
        lookup { msgid.withCString { id in String(cString: dgettext(domain, id)) } } ?? msgid
    }

    /// `msgid` in the chosen language where the catalog tells it apart by `context` (gettext's
    /// `pgettext`: the two joined by EOT): one English text with two uses a language may write
    /// differently, like a date of this year and of another.
    public static func text(_ msgid: String, context: String) -> String {
        // The key is joined inside `lookup`, after its check for English: not joined at all
        // where nothing is translated (dates in every row of a table ask this).
        let found = lookup {
            let key = context + "\u{4}" + msgid
            let answer = key.withCString { id in String(cString: dgettext(domain, id)) }
            return answer == key ? msgid : answer
        }
        return found ?? msgid
    }

    /// The plural form of `singular`/`plural` for `count` in the chosen language.
    public static func plural(_ singular: String, _ plural: String, _ count: Int) -> String {
        lookup {
            singular.withCString { one in
                plural.withCString { many in String(cString: dngettext(domain, one, many, UInt(max(count, 0)))) }
            }
        } ?? (count == 1 ? singular : plural)
    }

    /// The result of `body` with every message in English, on this thread: for words that are
    /// kept rather than shown (a pop-up's late label as the history records it).
    public static func inEnglish<Result>(_ body: () -> Result) -> Result {
        let outer = pthread_getspecific(englishKey)
        pthread_setspecific(englishKey, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(englishKey, outer) }
        return body()
    }

    /// Set (non-nil) on a thread inside `inEnglish`.
    private static let englishKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// `translate` with the chosen locale installed on this thread. It copies gettext's answer
    /// into a String inside the msgid's `withCString`: for a message without a translation,
    /// gettext returns the msgid's own pointer, which is valid only there.
    private static func lookup(_ translate: () -> String) -> String? {
        guard pthread_getspecific(englishKey) == nil else { return nil }
        guard let locale = locale_t(bitPattern: chosen.withLock { $0.locale }) else { return nil }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return translate()
    }

    private static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    private static func installedLocaleDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/usr/share/locale" }
        var path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<2 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/share/locale"
    }
}

/// `msgid` translated; the keyword `scripts/update-po.sh` extracts.
public func _t(_ msgid: String) -> String { Translation.text(msgid) }

/// `msgid` translated in `context`; the keyword `_p:1c,2` that `scripts/update-po.sh` extracts.
public func _p(_ context: String, _ msgid: String) -> String { Translation.text(msgid, context: context) }

/// The plural form for `count`; the keyword `_n:1,2` that `scripts/update-po.sh` extracts.
public func _n(_ singular: String, _ plural: String, _ count: Int) -> String {
    Translation.plural(singular, plural, count)
}

extension String {
    /// The translated text with its positional placeholders `%1$s`, `%2$d` … replaced by
    /// `arguments` in order (`%%` is a percent sign); the placeholders are c-format's, so
    /// `msgfmt --check` verifies each translation keeps them.
    public func filled(_ arguments: String...) -> String { filled(arguments) }

    /// `filled` with the arguments in an array.
    public func filled(_ arguments: [String]) -> String {
        var result = ""
        var rest = Substring(self)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.first == "%" {
                result += "%"
                rest = after.dropFirst()
                continue
            }
            let digits = after.prefix(while: \.isNumber)
            let tail = after.dropFirst(digits.count)
            if let index = Int(digits), index >= 1, index <= arguments.count, tail.first == "$",
                let kind = tail.dropFirst().first, kind == "s" || kind == "d"
            {
                result += arguments[index - 1]
                rest = tail.dropFirst(2)
            } else {
                result += "%"
                rest = after
            }
        }
        return result + rest
    }
}
