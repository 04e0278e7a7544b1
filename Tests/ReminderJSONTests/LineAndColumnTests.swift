import ReminderJSON
import Testing

@Suite struct LineAndColumnTests {
    func place(_ offset: Int, _ text: String) -> [Int] {
        let place = LineAndColumn(of: offset, in: Array(text.utf8))
        return [place.line, place.column]
    }

    @Test func countsLinesAndCharactersNotBytes() {
        #expect(place(0, "") == [1, 1])
        #expect(place(3, "abc\ndef") == [1, 4])
        #expect(place(4, "abc\ndef") == [2, 1])
        // "é" is two bytes and "😀" four: each is one column.
        #expect(place(Array("\né😀".utf8).count, "\né😀x") == [2, 3])
    }
}
