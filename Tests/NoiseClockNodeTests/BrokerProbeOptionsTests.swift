import NoiseClockCore
import NoiseClockMQTT
import Testing
@testable import NoiseClockNode

/// `POST /api/mqtt/test`'s body as the test client's options: plain logic, no broker.
@Suite struct BrokerProbeOptionsTests {
    static let running: NodeConfiguration = {
        var mqtt = NodeConfiguration.MQTT(clientID: "noiseclock-bedroom", username: "clock", password: Secret("s3cret"))
        mqtt.tls = .init(caFile: "/etc/ssl/ca.pem")
        return NodeConfiguration(nodeID: "bedroom", mqtt: mqtt)
    }()

    func parse(_ body: String) -> Result<MQTTOptions, CommandError> {
        BrokerProbe.options(Array(body.utf8), running: Self.running)
    }

    @Test func aBodyBecomesATestClientOfItsOwn() throws {
        let options = try parse(#"{"host": "broker.lan", "port": 8883, "tls": true, "username": "other", "password": "pw"}"#).get()
        #expect(options.host == "broker.lan" && options.port == 8883)
        #expect(options.tls.caFile == "/etc/ssl/ca.pem")
        #expect(options.username == "other" && options.password == "pw")
        // Never the node's own client id: the broker would drop the node's connection for the test's.
        #expect(options.clientID != "noiseclock-bedroom" && options.clientID.hasPrefix("noiseclock-bedroom-test-"))
        let plain = try parse(#"{"host": "broker.lan"}"#).get()
        #expect(plain.port == 1883 && !plain.tls.isEnabled && plain.username == nil && plain.password == nil)
    }

    @Test func theNodesOwnUserNameOnItsOwnBrokerTakesItsPassword() throws {
        // The running broker is the default 127.0.0.1:1883.
        #expect(try parse(#"{"host": "127.0.0.1", "port": 1883, "username": "clock"}"#).get().password == "s3cret")
        #expect(try parse(#"{"host": "127.0.0.1", "username": "guest"}"#).get().password == nil)
    }

    /// v1.4: another host (or port) never gets the stored password, whatever user name is asked
    /// for; it gets only the password the request carries.
    @Test func anotherBrokerNeverGetsTheStoredPassword() throws {
        #expect(try parse(#"{"host": "broker.lan", "username": "clock"}"#).get().password == nil)
        #expect(try parse(#"{"host": "127.0.0.1", "port": 1884, "username": "clock"}"#).get().password == nil)
        #expect(try parse(#"{"host": "broker.lan", "username": "clock", "password": "typed"}"#).get().password == "typed")
        var mqtt = Self.running.mqtt
        mqtt.hosts = [BrokerAddress(host: "127.0.0.1", port: 1883), BrokerAddress(host: "standby.lan", port: 8883)]
        let cluster = NodeConfiguration(nodeID: "bedroom", mqtt: mqtt)
        let standby = BrokerProbe.options(Array(#"{"host": "Standby.lan", "port": 8883, "username": "clock"}"#.utf8), running: cluster)
        #expect(try standby.get().password == "s3cret")
    }

    @Test func badBodiesAreRefusedNamingTheField() {
        let cases: [(String, String)] = [
            (#"{"port": 1883}"#, "host"), (#"{"host": ""}"#, "host"), (#"{"host": "b", "port": 0}"#, "port"),
            (#"{"host": "b", "port": 70000}"#, "port"),
        ]
        for (body, field) in cases {
            guard case .failure(let error) = parse(body) else {
                Issue.record("\(body) was taken")
                continue
            }
            #expect(error.field == field, "\(body): \(error)")
        }
        guard case .failure(let error) = parse("[1, 2]") else {
            Issue.record("a JSON array was taken")
            return
        }
        #expect(error.code == .invalidJSON)
        let noFiles = BrokerProbe.options(Array(#"{"host": "b", "tls": true}"#.utf8), running: NodeConfiguration(nodeID: "bedroom"))
        guard case .failure(let tls) = noFiles else {
            Issue.record("tls without the node's files was taken")
            return
        }
        #expect(tls.field == "tls")
    }
}
