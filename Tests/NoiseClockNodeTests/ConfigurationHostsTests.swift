import Testing
@testable import NoiseClockNode

/// `mqtt.hosts` (v1.2): a list of `host:port`, from the file or the variable; the first becomes
/// `host` and `port`, the rest the client's failover list.
@Suite("Configuration broker hosts") struct ConfigurationHostsTests {
    @Test func listFromFileAndEnvironment() async throws {
        let scratch = ConfigScratch()
        let none = try await NodeConfiguration.load(path: scratch.config(""), environment: [:], hostName: "x").configuration.mqtt
        #expect(none.hosts.isEmpty && none.host == "127.0.0.1" && none.port == 1883)
        let path = scratch.config("mqtt:\n  hosts: [\"rabbit1.lan:1883\", \"[fd00::2]:1884\", \"10.0.0.3:1885\"]\n")
        let mqtt = try await NodeConfiguration.load(path: path, environment: [:], hostName: "x").configuration.mqtt
        #expect(mqtt.host == "rabbit1.lan" && mqtt.port == 1883)
        #expect(mqtt.hosts == [BrokerAddress(host: "rabbit1.lan", port: 1883), BrokerAddress(host: "fd00::2", port: 1884),
                               BrokerAddress(host: "10.0.0.3", port: 1885)])
        let configuration = try await NodeConfiguration.load(path: path, environment: [:], hostName: "x").configuration
        let options = NodeApplication.mqttOptions(configuration, topics: .init(base: "noiseclock", nodeID: "x"))
        #expect(options.brokers.map { "\($0.host):\($0.port)" } == ["rabbit1.lan:1883", "fd00::2:1884", "10.0.0.3:1885"])
        let environment = ["NOISECLOCK_MQTT_HOSTS": "a.lan:1, b.lan:2"]
        let overridden = try await NodeConfiguration.load(path: path, environment: environment, hostName: "x").configuration.mqtt
        #expect(overridden.hosts == [BrokerAddress(host: "a.lan", port: 1), BrokerAddress(host: "b.lan", port: 2)])
    }
}
