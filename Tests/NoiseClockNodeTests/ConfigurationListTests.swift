import Testing
@testable import NoiseClockNode

/// The list type a key may have (`ConfigurationKey<[String]>`): a YAML list of strings in the
/// file, comma-separated in its variable.
@Suite struct ConfigurationListTests {
    @Test(arguments: [
        ("a.lan", ["a.lan"]), ("a.lan, b.lan", ["a.lan", "b.lan"]), (" a.lan ,, b.lan ,", ["a.lan", "b.lan"]), (",", []),
    ])
    func aVariableIsCommaSeparated(text: String, expected: [String]) {
        #expect([String](environment: text) == expected)
    }

    @Test func theFilesListIsTakenAsItIsAndOtherKindsAreNot() {
        #expect([String](ConfigurationValue.list(["x", "y"])) == ["x", "y"])
        #expect([String](ConfigurationValue.string("x")) == nil)
        #expect(["x", "y"].configurationValue == .list(["x", "y"]))
        #expect(["a.lan", "b.lan"].documented == "[a.lan, b.lan]")
    }
}
