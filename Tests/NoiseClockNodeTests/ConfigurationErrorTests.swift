import Testing
@testable import NoiseClockNode

/// Loads `yaml` and returns the error (nil when it loads).
func configurationError(
    _ yaml: String, environment: [String: String] = [:], scratch: ConfigScratch = ConfigScratch()
) async -> ConfigurationError? {
    do {
        _ = try await NodeConfiguration.load(path: scratch.config(yaml), environment: environment, hostName: "x")
        return nil
    } catch {
        return error
    }
}

@Suite("Configuration errors")
struct ConfigurationErrorTests {
    @Test("a bad file names the key", arguments: [
        ("nodeid: bedroom", "nodeid", "unknown key"),
        ("mqtt:\n  prot: 1884", "mqtt.prot",
            "unknown key (known keys here: base_topic, client_id, host, hosts, keepalive_seconds, password, password_file, port, protocol, tls, "
                + "username)"),
        ("mqtt:\n  tls:\n    ca: /x", "mqtt.tls.ca", "unknown key"),
        ("audio:\n  volume: 3", "audio.volume", "unknown key"),
        ("mqtt:\n  port: abc", "mqtt.port", "expected an integer, got \"abc\""),
        ("mqtt:\n  hosts: [\"broker.lan\"]", "mqtt.hosts", "each item must be host:port"),
        ("mqtt:\n  hosts: [\"broker.lan:70000\"]", "mqtt.hosts", "each item must be host:port"),
        ("mqtt:\n  hosts: [\"::1:1883\"]", "mqtt.hosts", "each item must be host:port"),
        ("mqtt:\n  port: \"1883\"", "mqtt.port", "expected an integer"),
        ("mqtt:\n  port: 18.5", "mqtt.port", "expected an integer"),
        ("mqtt:\n  port: [1, 2]", "mqtt.port", "expected an integer, got a list"),
        ("mqtt: broker.lan", "mqtt", "expected a mapping of keys"),
        ("node_id: {a: b}", "node_id", "expected a string, got a mapping"),
        ("home_assistant:\n  discovery: maybe", "home_assistant.discovery", "expected true or false, got \"maybe\""),
        ("mqtt:\n  port: 0", "mqtt.port", "must be between 1 and 65535, got 0"),
        ("mqtt:\n  port: 70000", "mqtt.port", "must be between 1 and 65535, got 70000"),
        ("node_id: Bed Room", "node_id", "must be one or more of a-z, 0-9, _ and -, got \"Bed Room\""),
        ("node_id: \"\"", "node_id", "must be one or more"),
        ("node_id: all", "node_id", "reserved for group commands"),
        ("locale: fr", "locale", "must be one of en, ko, got \"fr\""),
        ("log_level: loud", "log_level", "must be one of trace"),
        ("timezone: Europe/Nowhere", "timezone", "unknown time zone"),
        ("timezone: ../etc/passwd", "timezone", "must be \"system\" or an IANA zone name"),
        ("state_dir: \"\"", "state_dir", "must not be empty"),
        ("mqtt:\n  host: \"\"", "mqtt.host", "must not be empty"),
        ("mqtt:\n  base_topic: home/+/clock", "mqtt.base_topic", "wildcards"),
        ("mqtt:\n  base_topic: home/#", "mqtt.base_topic", "wildcards"),
        ("mqtt:\n  base_topic: /home", "mqtt.base_topic", "start or end with /"),
        ("mqtt:\n  base_topic: home/", "mqtt.base_topic", "start or end with /"),
        ("mqtt:\n  base_topic: home//clock", "mqtt.base_topic", "empty level"),
        ("mqtt:\n  protocol: 4", "mqtt.protocol", "must be \"5\" or \"3.1.1\", got \"4\""),
        ("mqtt:\n  keepalive_seconds: 4", "mqtt.keepalive_seconds", "must be between 5 and 3600, got 4"),
        ("mqtt:\n  client_id: \"\"", "mqtt.client_id", "must not be empty"),
        ("mqtt:\n  tls:\n    ca_file: /nonexistent/ca.pem", "mqtt.tls.ca_file", "cannot read /nonexistent/ca.pem: No such file or directory"),
        ("mqtt:\n  password_file: /nonexistent/pw\n  username: u", "mqtt.password_file", "cannot read /nonexistent/pw: No such file or directory"),
        ("mqtt:\n  password_file: /tmp\n  username: u", "mqtt.password_file", "not a regular file"),
        ("home_assistant:\n  prefix: ha/#", "home_assistant.prefix", "wildcards"),
        ("audio:\n  sample_rate: 4000", "audio.sample_rate", "must be between 8000 and 192000, got 4000"),
        ("audio:\n  device: \"\"", "audio.device", "must not be empty"),
        ("battery:\n  interval_seconds: 4", "battery.interval_seconds", "must be at least 5, got 4"),
        ("web:\n  port: 0", "web.port", "must be between 1 and 65535, got 0"),
        ("web:\n  port: eighty", "web.port", "expected an integer"),
        ("web:\n  enabled: sometimes", "web.enabled", "expected true or false"),
        ("web:\n  auth: password", "web.auth", "must be token or none, got \"password\""),
        ("web:\n  host: my.lan", "web.host", "must be an IP address to listen on"),
        ("web:\n  host: \"\"", "web.host", "must be an IP address to listen on"),
        ("web:\n  token_file: \"\"", "web.token_file", "must not be empty"),
        ("web:\n  tls: true", "web.tls", "unknown key"),
    ])
    func badFile(yaml: String, key: String, message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description == "configuration error: \(key): \(error.message)")
        #expect(!error.description.contains("\n"))
    }

    @Test("the error line reads as the contract shows")
    func errorLine() async throws {
        let error = try #require(await configurationError("mqtt:\n  port: 70000"))
        #expect(error.description == "configuration error: mqtt.port: must be between 1 and 65535, got 70000")
        #expect(error.exitCode == 2)
        #expect(ConfigurationError.exitCode == 2)
    }

    @Test("a bad environment variable names the key and the variable", arguments: [
        (["NOISECLOCK_MQTT_PORT": "abc"], "configuration error: mqtt.port: expected an integer, got \"abc\" (from NOISECLOCK_MQTT_PORT)"),
        (["NOISECLOCK_MQTT_PORT": "70000"], "configuration error: mqtt.port: must be between 1 and 65535, got 70000 (from NOISECLOCK_MQTT_PORT)"),
        (["NOISECLOCK_WEB_AUTH": "open"], "configuration error: web.auth: must be token or none, got \"open\" (from NOISECLOCK_WEB_AUTH)"),
        (["NOISECLOCK_HOME_ASSISTANT_DISCOVERY": "sometimes"],
            "configuration error: home_assistant.discovery: expected true or false, got \"sometimes\" (from NOISECLOCK_HOME_ASSISTANT_DISCOVERY)"),
        (["NOISECLOCK_NODE_ID": "Bad!"],
            "configuration error: node_id: must be one or more of a-z, 0-9, _ and -, got \"Bad!\" (from NOISECLOCK_NODE_ID)"),
        (["NOISECLOCK_LOCALE": "de"], "configuration error: locale: must be one of en, ko, got \"de\" (from NOISECLOCK_LOCALE)"),
    ])
    func badEnvironment(environment: [String: String], expected: String) async throws {
        let error = try #require(await configurationError("mqtt:\n  port: 1883", environment: environment))
        #expect(error.description == expected)
    }

    @Test("a missing configuration file names the path")
    func missingFile() async throws {
        do {
            _ = try await NodeConfiguration.load(path: "/nonexistent/noiseclock.yaml", environment: [:], hostName: "x")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.key == "/nonexistent/noiseclock.yaml")
            #expect(error.description == "configuration error: /nonexistent/noiseclock.yaml: cannot read the configuration file: No such file or "
                + "directory")
        }
    }

    @Test("invalid YAML names the path and the problem", arguments: [
        ("mqtt: [1, 2", "did not find expected"), ("a: b\n c: d: e", "line 2"), ("- just\n- a list", "top level"),
        ("mqtt:\n  port: 1\n  port: 2", "'port'"),
    ])
    func invalidYAML(yaml: String, mentions: String) async throws {
        let scratch = ConfigScratch()
        let error = try #require(await configurationError(yaml, scratch: scratch))
        #expect(error.key == "\(scratch.directory)/noiseclock.yaml")
        #expect(error.message.contains(mentions), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test("a client certificate needs its key")
    func certificateWithoutKey() async throws {
        let scratch = ConfigScratch()
        let cert = scratch.write("client.pem", "cert")
        let error = try #require(await configurationError("mqtt:\n  tls:\n    cert_file: \(cert)", scratch: scratch))
        #expect(error.key == "mqtt.tls.key_file")
    }

    @Test("a host name that cannot be a node id asks for node_id")
    func badHostName() async throws {
        let scratch = ConfigScratch()
        do {
            _ = try await NodeConfiguration.load(path: scratch.config(""), environment: [:], hostName: "ALL")
            Issue.record("accepted node id all")
        } catch {
            #expect(error.key == "node_id")
            #expect(error.message.hasSuffix("set node_id"))
        }
    }
}
