import ReminderCore
import Testing

/// Names compared as a person means them, without ICU: case, Latin accents (precomposed or
/// combining), curly apostrophes and spacing aside; and the distance "did you mean" relies on.
@Suite struct NameFoldingTests {
    @Test func caseAccentsApostrophesAndSpacesFold() {
        #expect(NameFolding.fold("Uber Cash") == "uber cash")
        #expect(NameFolding.fold("  Crème   Brûlée ") == "creme brulee")
        #expect(NameFolding.fold("Cre\u{0300}me") == "creme")  // decomposed: the mark dropped
        #expect(NameFolding.fold("ŁÓDŹ Straße Æsir") == "lodz strasse aesir")
        #expect(NameFolding.fold("Dunkin\u{2019}") == "dunkin'")
        #expect(NameFolding.fold("Ωμέγα 東京") == "ωμέγα 東京")  // outside Latin: lower case only
    }

    @Test func distanceCountsEditsAndSwaps() {
        #expect(NameFolding.distance("lsit", "list") == 1)
        #expect(NameFolding.distance("sapphire reserv", "sapphire reserve") == 1)
        #expect(NameFolding.distance("america/newyork", "america/new_york") == 1)
        #expect(NameFolding.distance("", "abc") == 3)
        #expect(NameFolding.distance("kitten", "sitting") == 3)
    }

    @Test func nearIsATypoOrAStartNeverTheSameName() {
        #expect(NameFolding.isNear("sapphire reserv", "sapphire reserve"))
        #expect(NameFolding.isNear("quiethour", "quiethours"))
        #expect(NameFolding.isNear("amex plat", "amex platinum"))
        #expect(!NameFolding.isNear("amex gold", "amex platinum"))
        #expect(!NameFolding.isNear("venture x", "venture x"))
        #expect(!NameFolding.isNear("ad", "list"))
    }
}
