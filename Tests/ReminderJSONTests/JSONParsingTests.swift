import ReminderJSON
import Testing

@Suite struct JSONParsingTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8), source: "t") }

    func refusal(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "accepted"
        } catch { return "\(error)" }
    }

    @Test func readsEveryKindOfValue() throws {
        #expect(
            try parse(#" {"a": [1, -2.5, true, false, null], "b": "\u00e9\ud83d\ude00\n\/"} "#)
                == .object([
                    "a": .array([.integer(1), .number(-2.5), .bool(true), .bool(false), .null]),
                    "b": .string("é😀\n/"),
                ]))
    }

    @Test func wholeNumbersAreIntegersHoweverWritten() throws {
        #expect(
            try parse("[30, 30.0, 3e1, 300e-1, -0, 9223372036854775807, -9223372036854775808]")
                == .array([
                    .integer(30), .integer(30), .integer(30), .integer(30), .integer(0), .integer(.max), .integer(.min),
                ]))
        #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try parse("0.1") == .number(0.1))
    }

    @Test func refusesWhatIsNotJSONWithTheByteOffset() {
        #expect(refusal("[1,]").contains("unexpected character at byte 3"))
        #expect(refusal(#"{"a":1,"a":2}"#).contains(#"duplicate member "a""#))
        #expect(refusal("1e400").contains("number out of range at byte 0"))
        #expect(refusal("\"a\u{1}\"").contains("control character"))
        #expect(refusal(#""\ud800""#).contains("unpaired surrogate"))
        #expect(refusal("01").contains("unexpected text after the document at byte 1"))
        #expect(refusal(String(repeating: "[", count: 100_000)).contains("nested too deeply at byte 512"))
        #expect((try? JSONValue.parse([0x22, 0xFF, 0x22], source: "t")) == nil)
    }

    @Test func serializedReadsBackTheSameAndSortsKeys() throws {
        let value = try parse(#"{"b": [1.5, "tab\t\"q\"\u0001"], "a": {}, "c": -1e300}"#)
        #expect(value.text() == #"{"a":{},"b":[1.5,"tab\t\"q\"\u0001"],"c":-1e+300}"#)
        #expect(try JSONValue.parse(value.serialized(pretty: true), source: "t") == value)
        #expect(JSONValue.object(["k": .array([.integer(1)])]).text(pretty: true) == "{\n  \"k\" : [\n    1\n  ]\n}")
    }
}
