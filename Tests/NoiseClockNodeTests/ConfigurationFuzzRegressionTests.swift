import Testing

/// Inputs the configuration fuzzer (Fuzz/) found; each once gave an error that named no key.
@Suite struct ConfigurationFuzzRegressionTests {
    @Test("an empty or null key is named by where it is", arguments: [
        ("?", "(top level)"),
        ("? \"\"\n: 5", "(top level)"),
        ("mqtt:\n  ?\n", "mqtt"),
    ])
    func emptyKey(yaml: String, key: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message == "a key is empty or null")
    }
}
