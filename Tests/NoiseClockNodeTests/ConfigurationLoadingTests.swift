import Testing
import NoiseClockCore
@testable import NoiseClockNode

@Suite("Configuration loading")
struct ConfigurationLoadingTests {
    @Test("an empty file gives every default, node_id from the host name")
    func defaults() async throws {
        let scratch = ConfigScratch()
        let loaded = try await NodeConfiguration.load(path: scratch.config(""), environment: [:], hostName: "Kitchen.Local")
        let configuration = loaded.configuration
        #expect(configuration == NodeConfiguration(nodeID: "kitchen_local"))
        #expect(configuration.nodeID == "kitchen_local")
        #expect(configuration.timezone == "system")
        #expect(configuration.locale == .en)
        #expect(configuration.stateDirectory == "./state")
        #expect(configuration.logLevel == .info)
        #expect(configuration.mqtt.host == "127.0.0.1")
        #expect(configuration.mqtt.port == 1883)
        #expect(configuration.mqtt.baseTopic == "noiseclock")
        #expect(configuration.mqtt.clientID == "noiseclock-kitchen_local")
        #expect(configuration.mqtt.username == nil)
        #expect(configuration.mqtt.password == nil)
        #expect(configuration.mqtt.protocolVersion == .v5)
        #expect(configuration.mqtt.tls == NodeConfiguration.TLS())
        #expect(!configuration.mqtt.tls.isEnabled)
        #expect(configuration.mqtt.keepaliveSeconds == 30)
        #expect(configuration.homeAssistant == .init(discovery: true, prefix: "homeassistant"))
        #expect(configuration.audio == .init(device: "default", sampleRate: 48000, soundsDirectory: nil))
        #expect(configuration.battery == .init(path: "/sys/class/power_supply", intervalSeconds: 60))
        #expect(configuration.topicPrefix == "noiseclock/kitchen_local")
        #expect(configuration.web == .init(enabled: true, host: "0.0.0.0", port: 8080, auth: .token, tokenFile: "./state/web_token"))
        #expect(loaded.warnings.isEmpty)
    }

    @Test("the shipped config/noiseclock.yaml loads and holds the defaults")
    func shippedFile() async throws {
        let loaded = try await NodeConfiguration.load(path: packageRoot + "/config/noiseclock.yaml", environment: [:], hostName: "x")
        #expect(loaded.configuration == NodeConfiguration(nodeID: "bedroom"))
        #expect(loaded.warnings.isEmpty)
    }

    @Test("every key from the file")
    func everyKeyFromTheFile() async throws {
        let scratch = ConfigScratch()
        let ca = scratch.write("ca.pem", "ca")
        let cert = scratch.write("client.pem", "cert")
        let key = scratch.write("client.key", "key")
        let password = scratch.write("password", "hunter2\n")
        scratch.write("Mars/Olympus", "TZif")
        let path = scratch.config("""
            node_id: living-room_2
            timezone: Mars/Olympus
            locale: ko
            state_dir: /var/lib/noiseclock
            log_level: DEBUG
            mqtt:
              host: broker.lan
              port: 8883
              base_topic: home/clocks
              client_id: clock-1
              username: clock
              password_file: \(password)
              protocol: 3.1.1
              tls: {ca_file: \(ca), cert_file: \(cert), key_file: \(key)}
              keepalive_seconds: 120
            home_assistant:
              discovery: false
              prefix: ha
            audio:
              device: plughw:1,0
              sample_rate: 44100
              sounds_dir: \(scratch.directory)
            battery:
              path: /tmp/power
              interval_seconds: 5
            web:
              enabled: false
              host: "::"
              port: 8443
              auth: none
              token_file: /etc/noiseclock/token
            """)
        let loaded = try await NodeConfiguration.load(path: path, environment: ["TZDIR": scratch.directory], hostName: "x")
        let expected = NodeConfiguration(
            nodeID: "living-room_2", timezone: "Mars/Olympus", locale: .ko, stateDirectory: "/var/lib/noiseclock", logLevel: .debug,
            mqtt: .init(
                host: "broker.lan", port: 8883, baseTopic: "home/clocks", clientID: "clock-1", username: "clock",
                passwordFile: password, password: Secret("hunter2"), protocolVersion: .v311,
                tls: .init(caFile: ca, certFile: cert, keyFile: key), keepaliveSeconds: 120
            ),
            homeAssistant: .init(discovery: false, prefix: "ha"),
            audio: .init(device: "plughw:1,0", sampleRate: 44100, soundsDirectory: scratch.directory),
            battery: .init(path: "/tmp/power", intervalSeconds: 5),
            web: .init(enabled: false, host: "::", port: 8443, auth: .none, tokenFile: "/etc/noiseclock/token")
        )
        #expect(loaded.configuration == expected)
        #expect(loaded.configuration.mqtt.tls.isEnabled)
        #expect(loaded.warnings.isEmpty)
    }

    @Test("null values and null sections mean not set")
    func nullsAreUnset() async throws {
        let scratch = ConfigScratch()
        let path = scratch.config("""
            node_id: ~
            locale:
            mqtt:
              port: null
              tls:
            audio: null
            """)
        let loaded = try await NodeConfiguration.load(path: path, environment: [:], hostName: "clock")
        #expect(loaded.configuration == NodeConfiguration(nodeID: "clock"))
    }

    @Test("environment variables beat the file, which beats the defaults")
    func environmentOverrides() async throws {
        let scratch = ConfigScratch()
        let ca = scratch.write("ca.pem", "ca")
        scratch.write("Mars/Olympus", "TZif")
        let path = scratch.config("""
            node_id: bedroom
            mqtt:
              port: 1884
              host: file-host
            home_assistant:
              discovery: true
            """)
        let environment = [
            "NOISECLOCK_NODE_ID": "kitchen",
            "NOISECLOCK_TIMEZONE": "Mars/Olympus",
            "NOISECLOCK_MQTT_PORT": "1999",
            "NOISECLOCK_MQTT_TLS_CA_FILE": ca,
            "NOISECLOCK_MQTT_PROTOCOL": "3.1.1",
            "NOISECLOCK_HOME_ASSISTANT_DISCOVERY": "false",
            "NOISECLOCK_LOG_LEVEL": "trace",
            "NOISECLOCK_AUDIO_SAMPLE_RATE": "96000",
            "NOISECLOCK_MQTT_USERNAME": "",  // empty: unset
            "TZDIR": scratch.directory,
            "PATH": "/usr/bin",
        ]
        let loaded = try await NodeConfiguration.load(path: path, environment: environment, hostName: "x")
        let configuration = loaded.configuration
        #expect(configuration.nodeID == "kitchen")
        #expect(configuration.mqtt.clientID == "noiseclock-kitchen")
        #expect(configuration.timezone == "Mars/Olympus")
        #expect(configuration.mqtt.port == 1999)
        #expect(configuration.mqtt.host == "file-host")
        #expect(configuration.mqtt.tls.caFile == ca)
        #expect(configuration.mqtt.protocolVersion == .v311)
        #expect(configuration.mqtt.username == nil)
        #expect(configuration.homeAssistant.discovery == false)
        #expect(configuration.logLevel == .trace)
        #expect(configuration.audio.sampleRate == 96000)
        #expect(loaded.warnings.isEmpty)
    }

    @Test("an unknown NOISECLOCK_ variable is a warning, not an error")
    func unknownVariableWarns() async throws {
        let scratch = ConfigScratch()
        let loaded = try await NodeConfiguration.load(
            path: scratch.config("node_id: a"), environment: ["NOISECLOCK_MQTT_PROT": "1884"], hostName: "x")
        #expect(loaded.warnings == [ConfigurationWarning(key: "NOISECLOCK_MQTT_PROT", message: "not a configuration variable; ignored")])
    }

    @Test("a missing sounds_dir is a warning")
    func missingSoundsDirectoryWarns() async throws {
        let scratch = ConfigScratch()
        let loaded = try await NodeConfiguration.load(
            path: scratch.config("audio: {sounds_dir: /nonexistent/sounds}"), environment: [:], hostName: "x")
        #expect(loaded.configuration.audio.soundsDirectory == "/nonexistent/sounds")
        #expect(loaded.warnings.map(\.key) == ["audio.sounds_dir"])
    }

    @Test("real IANA zones from the system's zone database are accepted", arguments: ["Europe/Berlin", "Asia/Seoul", "UTC", "system"])
    func realZones(zone: String) async throws {
        let scratch = ConfigScratch()
        let loaded = try await NodeConfiguration.load(path: scratch.config("timezone: \(zone)"), environment: [:], hostName: "x")
        #expect(loaded.configuration.timezone == zone)
    }

    @Test("host names become node ids", arguments: [
        ("bedroom", "bedroom"), ("Kitchen-PI", "kitchen-pi"), ("pi.local", "pi_local"),
        ("clock 3", "clock_3"), ("Schlafzimmer_Ü", "schlafzimmer__"), ("", "noiseclock"),
    ])
    func hostNameToNodeID(hostName: String, expected: String) {
        #expect(ConfigurationValidation.nodeID(fromHostName: hostName) == expected)
    }

    @Test("every key maps to NOISECLOCK_<SECTION>_<KEY>")
    func environmentNames() {
        let names = ConfigurationKeys.all.map(\.environmentVariable)
        #expect(names.contains("NOISECLOCK_MQTT_TLS_CA_FILE"))
        #expect(names.contains("NOISECLOCK_HOME_ASSISTANT_DISCOVERY"))
        #expect(names.contains("NOISECLOCK_NODE_ID"))
        #expect(names.contains("NOISECLOCK_WEB_TOKEN_FILE"))
        #expect(names.contains("NOISECLOCK_WEB_ALLOWED_HOSTS"))
        #expect(names.contains("NOISECLOCK_DEVICES_LIGHT_TOPIC"))
        #expect(names.contains("NOISECLOCK_BUTTON_TIMING_DOUBLE_SECONDS"))
        #expect(names.contains("NOISECLOCK_SPEECH_VOLUME"))
        #expect(names.contains("NOISECLOCK_SPEECH_CONFIRM_BUTTONS"))
        #expect(names.contains("NOISECLOCK_STREAM_TIMEOUT_SECONDS"))
        #expect(names.contains("NOISECLOCK_STREAM_PREROLL_SECONDS"))
        #expect(names.contains("NOISECLOCK_STREAM_USER_AGENT"))
        #expect(names.contains("NOISECLOCK_MQTT_PASSWORD"))
        #expect(names.contains("NOISECLOCK_STREAM_ALLOW_LOCAL_ADDRESSES"))
        #expect(names.contains("NOISECLOCK_STREAM_DIRECTORY_URL"))
        #expect(names.count == 50)
    }
}
