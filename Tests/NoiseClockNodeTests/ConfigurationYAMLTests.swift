import Testing
@testable import NoiseClockNode

/// YAML corners the loader handled with Yams and must handle the same with libyaml and our own
/// composer (YAML/): quoting, null, number forms, tags, anchors, duplicates, several documents.
@Suite("Configuration YAML")
struct ConfigurationYAMLTests {
    static func load(_ yaml: String, environment: [String: String] = [:]) async throws -> NodeConfiguration {
        let scratch = ConfigScratch()
        return try await NodeConfiguration.load(path: scratch.config(yaml), environment: environment, hostName: "host").configuration
    }

    @Test("quoted \"null\", \"~\" and \"true\" are strings; bare null and ~ are not set", arguments: [
        ("host: \"null\"", "null"), ("host: '~'", "~"), ("host: \"true\"", "true"), ("host: !!str null", "null"),
        ("host: null", "127.0.0.1"), ("host: ~", "127.0.0.1"), ("host:", "127.0.0.1"), ("host: NULL", "127.0.0.1"),
    ])
    func nullAndQuotes(yaml: String, host: String) async throws {
        #expect(try await Self.load("mqtt:\n  " + yaml).mqtt.host == host)
    }

    @Test("a string key takes a plain number or boolean as its text", arguments: [
        ("mqtt: {protocol: 5}", "5"), ("mqtt: {protocol: 3.1.1}", "3.1.1"), ("mqtt: {protocol: \"5\"}", "5"),
    ])
    func numbersAsStrings(yaml: String, text: String) async throws {
        #expect(try await Self.load(yaml).mqtt.protocolVersion.rawValue == text)
    }

    @Test("integers: YAML 1.1 forms of plain scalars", arguments: [
        ("1884", 1884), ("+1884", 1884), ("1_884", 1884), ("0x75c", 1884), ("0o3534", 1884), ("03534", 1884),
        ("0b11101011100", 1884), ("31:24", 1884), ("!!int 1884", 1884),
    ])
    func integerForms(text: String, port: Int) async throws {
        #expect(try await Self.load("mqtt:\n  port: \(text)").mqtt.port == port)
    }

    @Test("not integers: quoted, float, -0, too large, a string tag", arguments: [
        "\"1884\"", "'1884'", "1884.0", "-0", "1:0:0:0:0:0:0:0:0:0:0:0:0", "!!str 1884", "1884 # ok\n  host: x\n  port: 2",
    ])
    func notIntegers(text: String) async throws {
        let error = try #require(await configurationError("mqtt:\n  port: \(text)"))
        #expect(error.description.contains("mqtt.port") || error.message.contains("invalid YAML"), "\(error)")
    }

    @Test("booleans: yes/no, on/off, true/false in three cases; quoted is not", arguments: [
        ("yes", true), ("No", false), ("ON", true), ("off", false), ("True", true), ("FALSE", false), ("!!bool \"yes\"", true),
    ])
    func booleans(text: String, value: Bool) async throws {
        #expect(try await Self.load("home_assistant:\n  discovery: \(text)").homeAssistant.discovery == value)
    }

    @Test("a quoted boolean is refused", arguments: ["\"true\"", "'no'", "y", "1"])
    func quotedBoolean(text: String) async throws {
        let error = try #require(await configurationError("home_assistant:\n  discovery: \(text)"))
        #expect(error.key == "home_assistant.discovery")
        #expect(error.message.hasPrefix("expected true or false, got"))
    }

    @Test("empty keys are named by their section", arguments: [
        ("? ''\n: 1", "(top level)"), ("mqtt:\n  '': 1", "mqtt"), ("mqtt:\n  tls:\n    ? \n", "mqtt.tls"),
    ])
    func emptyKeys(yaml: String, key: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message == "a key is empty or null")
    }

    @Test("keys that are not scalars are refused with their section")
    func collectionKey() async throws {
        let error = try #require(await configurationError("mqtt:\n  ? [a, b]\n  : 1"))
        #expect(error.key == "mqtt")
        #expect(error.message == "keys must be plain names, got a list")
    }

    @Test("duplicate keys: equal nodes are invalid YAML, the same text with another tag is given twice")
    func duplicates() async throws {
        let scratch = ConfigScratch()
        let same = try #require(await configurationError("mqtt:\n  port: 1\n  \"port\": 2", scratch: scratch))
        #expect(same.key == "\(scratch.directory)/noiseclock.yaml")
        #expect(same.message == "invalid YAML: Parser: expected all keys to be unique but found the following duplicated key(s): 'port'.")
        let tagged = try #require(await configurationError("mqtt:\n  port: 1\n  !custom port: 2"))
        #expect(tagged.description == "configuration error: mqtt.port: given more than once")
    }

    @Test("anchors and aliases resolve; an unknown alias is invalid YAML")
    func aliases() async throws {
        let configuration = try await Self.load("mqtt:\n  host: &broker broker.lan\n  client_id: *broker")
        #expect(configuration.mqtt.clientID == "broker.lan")
        let shared = try await Self.load("audio: &same {}\nbattery: *same")
        #expect(shared.battery == NodeConfiguration.Battery())
        let error = try #require(await configurationError("node_id: *nowhere"))
        #expect(error.message == "invalid YAML: found undefined alias at line 1, column 10")
    }

    @Test("one document only; comments alone or --- alone are an empty file")
    func documents() async throws {
        let error = try #require(await configurationError("node_id: a\n---\nnode_id: b\n"))
        #expect(error.message == "invalid YAML: but found another document at line 2, column 1")
        #expect(try await Self.load("# nothing here\n").nodeID == "host")
        #expect(try await Self.load("---\n").nodeID == "host")
        #expect(try await Self.load("---\nnode_id: a\n...\n").nodeID == "a")
    }

    @Test("libyaml's messages stay on one line with their position", arguments: [
        ("node_id: \"open", "found unexpected end of stream at line 1, column 15"),
        ("node_id: a\n\tmqtt: b", "found a tab character that violates indentation at line 2, column 1"),
        ("node_id: \u{1}", "control characters are not allowed"),
    ])
    func parserMessages(yaml: String, message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.message.hasPrefix("invalid YAML: "), "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test("nesting: deep is a wrong type, deeper than 1000 is invalid YAML (and never overflows the stack)")
    func nesting() async throws {
        let deep = try #require(await configurationError("node_id: " + String(repeating: "[", count: 900) + String(repeating: "]", count: 900)))
        #expect(deep.description == "configuration error: node_id: expected a string, got a list")
        let tooDeep = try #require(await configurationError("node_id: " + String(repeating: "[", count: 50_000)))
        #expect(tooDeep.message.hasPrefix("invalid YAML: Maximum nesting level reached"), "\(tooDeep)")
    }

    @Test("a scalar holding NUL or non-ASCII text is kept as written")
    func unusualText() async throws {
        #expect(try await Self.load("mqtt: {host: \"a\\0b\"}").mqtt.host == "a\u{0}b")
        #expect(try await Self.load("mqtt: {username: 시계}").mqtt.username == "시계")
    }
}
