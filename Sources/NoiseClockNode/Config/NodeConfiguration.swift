import Logging
import NoiseClockCore

/// The node's configuration, fixed for the life of the process. Plain values only.
///
/// Its keys, their defaults and checks are the table in `ConfigurationKeys` (shown in
/// docs/configuration.md); every key `a.b_c` is overridden by `NOISECLOCK_A_B_C`.
public struct NodeConfiguration: Sendable, Equatable {
    /// `[a-z0-9_-]+`; defaults to the host name, lower-cased, other characters replaced by `_`.
    public var nodeID: String
    /// `system` or an IANA zone name (`Europe/Berlin`); resolved by the node, checked to exist here.
    public var timezone: String
    public var locale: NodeLocale
    /// Where alarms, style and noise state survive restarts.
    public var stateDirectory: String
    public var logLevel: Logger.Level
    public var mqtt: MQTT
    public var homeAssistant: HomeAssistant
    public var audio: Audio
    public var battery: Battery
    public var web: Web
    /// The lamp and the bed shaker (`devices:`).
    public var devices = DeviceSettings()
    public var buttons: [ButtonDefinition] = []
    public var buttonTiming = ButtonTiming()
    public var speech = Speech()
    /// Radio (`stream:`): what the core needs of it (sounds.md, "Radio").
    public var stream = StreamSettings()

    /// `speech:`.
    public struct Speech: Sendable, Equatable {
        public var enabled = true
        /// nil: the voice for `locale`.
        public var voice: String?
        public var rate = 160
        public var volume = 70
        /// Say what a button did.
        public var confirmButtons = true

        public init(enabled: Bool = true, voice: String? = nil, rate: Int = 160, volume: Int = 70, confirmButtons: Bool = true) {
            self.enabled = enabled
            self.voice = voice
            self.rate = rate
            self.volume = volume
            self.confirmButtons = confirmButtons
        }
    }

    public init(
        nodeID: String,
        timezone: String = ConfigurationDefaults.timezone,
        locale: NodeLocale = .en,
        stateDirectory: String = ConfigurationDefaults.stateDirectory,
        logLevel: Logger.Level = .info,
        mqtt: MQTT? = nil,
        homeAssistant: HomeAssistant = HomeAssistant(),
        audio: Audio = Audio(),
        battery: Battery = Battery(),
        web: Web? = nil
    ) {
        self.nodeID = nodeID
        self.timezone = timezone
        self.locale = locale
        self.stateDirectory = stateDirectory
        self.logLevel = logLevel
        self.mqtt = mqtt ?? MQTT(clientID: ConfigurationDefaults.clientID(nodeID: nodeID))
        self.homeAssistant = homeAssistant
        self.audio = audio
        self.battery = battery
        self.web = web ?? Web(tokenFile: ConfigurationDefaults.webTokenFile(stateDirectory: stateDirectory))
    }

    /// `{base}/{node}`: what the contract writes as `~`.
    public var topicPrefix: String { "\(mqtt.baseTopic)/\(nodeID)" }
}

extension NodeConfiguration {
    public enum MQTTProtocolVersion: String, Sendable, CaseIterable {
        case v5 = "5"
        case v311 = "3.1.1"
    }

    public struct MQTT: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var baseTopic: String
        public var clientID: String
        public var username: String?
        /// The file the password came from (for messages); the password itself is in `password`.
        public var passwordFile: String?
        public var password: Secret?
        public var protocolVersion: MQTTProtocolVersion
        public var tls: TLS
        public var keepaliveSeconds: Int
        /// `mqtt.hosts`: when given, the brokers to try in turn (`host` and `port` are the first).
        public var hosts: [BrokerAddress] = []

        public init(
            host: String = ConfigurationDefaults.mqttHost,
            port: Int = ConfigurationDefaults.mqttPort,
            baseTopic: String = ConfigurationDefaults.baseTopic,
            clientID: String,
            username: String? = nil,
            passwordFile: String? = nil,
            password: Secret? = nil,
            protocolVersion: MQTTProtocolVersion = .v5,
            tls: TLS = TLS(),
            keepaliveSeconds: Int = ConfigurationDefaults.keepaliveSeconds
        ) {
            self.host = host
            self.port = port
            self.baseTopic = baseTopic
            self.clientID = clientID
            self.username = username
            self.passwordFile = passwordFile
            self.password = password
            self.protocolVersion = protocolVersion
            self.tls = tls
            self.keepaliveSeconds = keepaliveSeconds
        }
    }

    /// TLS is on when a CA file or a client certificate is given. Its own type, not the MQTT
    /// client's: the configuration's folder builds without NoiseClockMQTT (the fuzz package's
    /// NoiseClockConfig target compiles it alone).
    public struct TLS: Sendable, Equatable {
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?

        public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }

        public var isEnabled: Bool { caFile != nil || certFile != nil }
    }

    public struct HomeAssistant: Sendable, Equatable {
        public var discovery: Bool
        public var prefix: String

        public init(discovery: Bool = true, prefix: String = ConfigurationDefaults.discoveryPrefix) {
            self.discovery = discovery
            self.prefix = prefix
        }
    }

    public struct Audio: Sendable, Equatable {
        /// An ALSA PCM name.
        public var device: String
        public var sampleRate: Int
        /// Extra audio files (category `custom`); nil: none.
        public var soundsDirectory: String?

        public init(
            device: String = ConfigurationDefaults.audioDevice,
            sampleRate: Int = ConfigurationDefaults.sampleRate,
            soundsDirectory: String? = nil
        ) {
            self.device = device
            self.sampleRate = sampleRate
            self.soundsDirectory = soundsDirectory
        }
    }

    public struct Battery: Sendable, Equatable {
        /// The sysfs power-supply directory to scan.
        public var path: String
        public var intervalSeconds: Int

        public init(
            path: String = ConfigurationDefaults.batteryPath,
            intervalSeconds: Int = ConfigurationDefaults.batteryIntervalSeconds
        ) {
            self.path = path
            self.intervalSeconds = intervalSeconds
        }
    }

    /// The node's own web app and HTTP API (docs/web.md).
    public struct Web: Sendable, Equatable {
        public enum Auth: String, Sendable, CaseIterable {
            case token
            case none
        }

        public var enabled: Bool
        /// The address to listen on (`0.0.0.0`, `127.0.0.1`, `::`).
        public var host: String
        public var port: Int
        public var auth: Auth
        /// Where the access token is kept (created 0600 at first start).
        public var tokenFile: String
        /// `Host` names answered besides IP literals, localhost and the machine's name (a
        /// reverse proxy's name), lower-cased.
        public var allowedHosts: [String]

        public init(
            enabled: Bool = ConfigurationDefaults.webEnabled,
            host: String = ConfigurationDefaults.webHost,
            port: Int = ConfigurationDefaults.webPort,
            auth: Auth = .token,
            tokenFile: String,
            allowedHosts: [String] = []
        ) {
            self.enabled = enabled
            self.host = host
            self.port = port
            self.auth = auth
            self.tokenFile = tokenFile
            self.allowedHosts = allowedHosts
        }

        /// Whether only this machine can reach the listener.
        public var isLoopbackOnly: Bool {
            host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }
}
