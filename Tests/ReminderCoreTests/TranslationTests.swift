import ReminderCore
import Testing

/// The placeholders a translation fills (`String.filled`): positional, so a language may reorder
/// them; anything else that looks like one is left as written, never a crash or a lost argument.
@Suite struct TranslationTests {
    @Test func positionalPlaceholdersTakeTheirArgumentInAnyOrder() {
        #expect("Your %1$s %2$s %3$s".filled("$15", "Uber Cash", "expires today") == "Your $15 Uber Cash expires today")
        #expect("%2$s (%1$s) %3$s".filled("$15", "Uber Cash", "läuft heute ab") == "Uber Cash ($15) läuft heute ab")
        #expect("%1$d일 후 만료".filled("3") == "3일 후 만료")
    }

    @Test func aPercentThatIsNoPlaceholderStaysAsWritten() {
        #expect("100%% of %1$s".filled("$15") == "100% of $15")
        #expect("%3$s and %x and 50%".filled("a") == "%3$s and %x and 50%")
        #expect("%1$s".filled() == "%1$s")
    }

    @Test func withoutAChosenLanguageOrInEnglishEveryMessageIsItsMsgid() {
        #expect(_t("Mark as used") == "Mark as used")
        #expect(_n("in %1$d days", "in %1$d days", 1) == "in %1$d days")
        #expect(Translation.inEnglish { _t("Undo") } == "Undo")
    }
}
