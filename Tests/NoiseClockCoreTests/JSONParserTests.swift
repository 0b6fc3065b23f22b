import Testing
@testable import NoiseClockCore

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}", "{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}"),
        ("  [1.5, -2, 0]  ", "[1.5,-2,0]"),
        ("\"\\u00e9\\ud83d\\ude00\\n\"", "\"é😀\\n\""),
        ("{\"label\":\"오전\"}", "{\"label\":\"오전\"}"),
    ])
    func roundTrips(input: String, expected: String) throws {
        #expect(try JSONParser().parse(input).serialized == expected)
    }

    @Test(arguments: [
        "{", "[1,]", "{\"a\":1,\"a\":2}", "01", "1.", "-", "tru", "\"\\x\"", "\"\u{01}\"", "{\"a\" 1}",
        "[1] x", "\"\\ud800\"", "1e999",
    ])
    func rejects(input: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser().parse(input) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParser.Error.self) { try JSONParser().parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParser.Error.self) { try JSONParser().parse([0x22, 0xE0, 0x80, 0xAF, 0x22]) }
    }

    @Test func limitsDepth() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(try JSONParser().parse(ok) != .null)
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: JSONParser.Error.self) { try JSONParser().parse(deep) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParser.Error.self) { try JSONParser().parse(hostile) }
    }

    @Test func keepsIntegersAndHugeNumbers() throws {
        #expect(try JSONParser().parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONParser().parse("92233720368547758070") == .double(9.223372036854775808e19))
        #expect(try JSONParser().parse("5.0").intValue == 5)
        #expect(try JSONParser().parse("5.5").intValue == nil)
    }
}
