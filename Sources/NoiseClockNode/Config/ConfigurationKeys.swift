import NoiseClockCore

/// Every key the node knows, one line each: path, default, check, and the line that
/// docs/configuration.md shows for it (`ConfigurationDocumentationTests` keeps the two equal).
/// The file's parser, the environment variables and the defaults all come from here, so adding a
/// key is one line below and the code that uses its value. An unknown key in the file is an
/// error: this table is the contract.
struct ConfigurationKeys: Sendable {
    typealias Key = ConfigurationKey
    typealias V = ConfigurationValidation

    let nodeID = Key<String>(
        "node_id", nil, computed: "host name, lower-cased, characters outside `[a-z0-9_-]` replaced by `_`", check: V.nodeID,
        "the node's topic level: `{base_topic}/{node_id}/...`; `[a-z0-9_-]+`, not `all` (reserved for group commands)")
    let timezone = Key<String>(
        "timezone", "system", "`system` or an IANA zone name (`Europe/Berlin`); a name must exist in `/usr/share/zoneinfo` (or `$TZDIR`)")
    let locale = Key<String>(
        "locale", "en", "language of dates and repeat texts: `en` or `ko` (`en_US`, `ko-KR` are accepted as those)")
    let stateDirectory = Key<String>(
        "state_dir", "./state", check: V.requiredPath, "directory where alarms, style and noise settings survive restarts")
    let logLevel = Key<String>(
        "log_level", "info",
        "*(NoiseClock addition)* `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical` (case-insensitive)")
    let mqttHost = Key<String>("mqtt.host", "127.0.0.1", check: V.notEmpty, "broker host name or address")
    let mqttPort = Key("mqtt.port", 1883, range: 1...65535, "broker port, {range}")
    let mqttHosts = Key<[String]>(
        "mqtt.hosts", [], check: V.brokerAddresses,
        "*(v1.2)* brokers of one cluster, or a primary and a standby, as `host:port` (`[::1]:1883` for IPv6), "
            + "instead of `host` and `port`: the node connects to the first that answers and, when the connection is lost, "
            + "tries the next, round the list ([scaling.md](scaling.md))")
    let baseTopic = Key<String>(
        "mqtt.base_topic", "noiseclock", check: V.topicPrefix,
        "first topic level(s); no `+` or `#`, no empty level, no leading or trailing `/`")
    let clientID = Key<String>(
        "mqtt.client_id", nil, computed: "`noiseclock-<node_id>`", check: V.notEmpty,
        "MQTT client id; a broker that refuses the session under it (RabbitMQ 3.10 after a broker node crashed) gets it with "
            + "`-` and 8 hex digits added, until the node restarts ([reliability.md](reliability.md#11-a-crashed-broker-node))")
    let username = Key<String>("mqtt.username", nil, "broker user name")
    let password = Key<String>(
        "mqtt.password", nil, check: V.notEmpty,
        "*(v1.3)* the broker's password, set in the web app (write-only: shown as `\"set\"`; in a backup only with `?secrets=1`) "
            + "or the environment, never in this file (refused); needs `mqtt.username`; wins over the file's `password_file` "
            + "(both from the environment are refused)")
    let passwordFile = Key<String>(
        "mqtt.password_file", nil, check: V.path, "file whose first line (trimmed) is the password; needs `mqtt.username`")
    let mqttProtocol = Key<String>(
        "mqtt.protocol", "5", "*(NoiseClock addition)* MQTT version: `\"5\"` or `\"3.1.1\"`")
    let caFile = Key<String>("mqtt.tls.ca_file", nil, check: V.path, "CA certificate (PEM); giving it turns TLS on")
    let certFile = Key<String>("mqtt.tls.cert_file", nil, check: V.path, "client certificate (PEM); needs `key_file`")
    let keyFile = Key<String>("mqtt.tls.key_file", nil, check: V.path, "client key (PEM); needs `cert_file`")
    let keepaliveSeconds = Key("mqtt.keepalive_seconds", 30, range: 5...3600, "keep-alive interval, {range}")
    let discovery = Key<Bool>("home_assistant.discovery", true, "publish Home Assistant discovery configs")
    let discoveryPrefix = Key<String>(
        "home_assistant.prefix", "homeassistant", check: V.topicPrefix,
        "Home Assistant's discovery prefix (same rules as `base_topic`)")
    let audioDevice = Key<String>(
        "audio.device", "default", check: V.soundDevice,
        "ALSA PCM name (`default`, `hw:0,0`, `plughw:CARD=USB,DEV=0`, a PCM of the ALSA configuration); *(v1.4)* a name, "
            + "never a definition (`file:`, `tee:`, `{...}` are refused: a sound device never writes a file; [web.md](web.md)); "
            + "write ALSA's null sink as `\"null\"`, quoted — bare `null` is YAML's \"not set\"")
    let sampleRate = Key("audio.sample_rate", 48000, range: 8000...192_000, "output sample rate in Hz, {range}")
    let soundsDirectory = Key<String>(
        "audio.sounds_dir", nil, check: V.path,
        "directory of extra audio files, offered as sounds of category `custom` (a warning if it is not a directory)")
    let batteryPath = Key<String>("battery.path", "/sys/class/power_supply", check: V.requiredPath, "sysfs directory scanned for a battery")
    let batteryIntervalSeconds = Key("battery.interval_seconds", 60, range: 5...Int.max, "seconds between battery readings, {range}")
    let webEnabled = Key<Bool>(
        "web.enabled", true, "serve the web app and HTTP API ([web.md](web.md)); *(v1.4)* set here or in the environment, never from the web app")
    let webHost = Key<String>(
        "web.host", "0.0.0.0", check: V.listenAddress,
        "address to listen on: a numeric IPv4 or IPv6 address (`0.0.0.0`, `::`, `127.0.0.1`) or `localhost`")
    let webPort = Key(
        "web.port", 8080, range: 1...65535,
        "port, {range}; one that cannot be bound is logged (naming `web.port`) and retried every 30 s, the rest of the node runs on")
    let webAuth = Key<String>(
        "web.auth", "token", "`token` (Bearer header or session cookie) or `none` (a warning unless `host` is loopback)")
    let webTokenFile = Key<String>(
        "web.token_file", nil, computed: "`<state_dir>/web_token`", check: V.requiredPath,
        "the access token; created (0600) at first start if missing; a file that cannot be made or read stops the node (exit 2, naming this key)")
    let webAllowedHosts = Key<[String]>(
        "web.allowed_hosts", [], check: V.hostNames,
        "`Host` names the web app answers besides IP addresses, `localhost` and the machine's own names (its host name `bedside`, "
            + "`bedside.local`, and `bedside.<d>` for each search domain `d` of `/etc/resolv.conf`; [web.md](web.md)): "
            + "a reverse proxy's name (`[clock.home.example]`; the variable comma-separated); any other `Host` gets 421 (DNS rebinding)")
    /// `devices.<key>.topic` and `devices.<key>.protocol` for every kind of bridged device.
    let devices: [DeviceKeys] = DeviceList.kinds.map(DeviceKeys.init)
    let buttons = Key<ConfigurationList>(
        "buttons", ConfigurationList([]),
        "buttons: a list of `{id, input: {device, key}}` (a local input device) or `{id, mqtt: {topic, field, press, double, hold}}`, "
            + "each with `press`, `double`, `hold` actions ([bedroom.md](bedroom.md), [mqtt-api.md](mqtt-api.md#buttons)); "
            + "from the environment, a JSON array")
    let holdSeconds = Key(
        "button_timing.hold_seconds", 1.0, range: ButtonTiming.holdRange,
        "seconds a local button stays down to be a `hold` (fired before release), {range}")
    let doubleSeconds = Key(
        "button_timing.double_seconds", 0.35, range: ButtonTiming.doubleRange,
        "seconds after a release in which a second press makes a `double`, {range}")
    let speechEnabled = Key<Bool>("speech.enabled", true, "speak (`~/say`, `~/speak/time`, `~/speak/next_alarm`) with eSpeak NG, loaded on first use")
    let speechVoice = Key<String>(
        "speech.voice", nil, computed: "the one for `locale` (`en`, `ko`)", check: V.notEmpty, "an eSpeak NG voice (`espeak-ng --voices`)")
    let speechRate = Key("speech.rate", 160, range: 80...400, "words per minute, {range}")
    let speechVolume = Key("speech.volume", 70, range: 0...100, "loudness of speech, {range}; noise and a ringing alarm are ducked under it")
    let speechConfirmButtons = Key<Bool>(
        "speech.confirm_buttons", true, "after a button's action succeeds, say what it did (\"Snoozed until 6:54 AM\", \"Alarm off\", \"Noise on\")")
    let streamTimeoutSeconds = Key(
        "stream.timeout_seconds", 5, range: StreamSettings.timeoutRange,
        "seconds an alarm on a radio station waits from the ring for the station to be heard before ringing the fallback tone, {range}")
    let streamPrerollSeconds = Key(
        "stream.preroll_seconds", 30, range: StreamSettings.prerollRange,
        "seconds before the ring an alarm's radio station is connected, so its first sample plays at the minute, {range}")
    let streamFallbackNoise = Key<String>(
        "stream.fallback_noise", "brown", check: V.fallbackNoise,
        "what a station playing as noise fades into after 10 s without audio, until it returns: `brown`, `pink`, `white`, `rain`, "
            + "`ocean`, `fan`, or `none` (silence; a bare `null` means \"not set\", so `brown`)")
    let streamCAFile = Key<String>(
        "stream.ca_file", nil, check: V.requiredPath, "a CA certificate file (PEM) stations over HTTPS may be signed by, besides the system's store")
    let streamUserAgent = Key<String>(
        "stream.user_agent", nil, computed: "`NoiseClock/<version>`", check: V.userAgent,
        "the `User-Agent` stream players send, 1–200 printable ASCII characters")
    let streamAllowLocalAddresses = Key<Bool>(
        "stream.allow_local_addresses", false,
        "let stations (and `station/test`) reach loopback and link-local addresses (127.0.0.0/8, ::1, 169.254.0.0/16, fe80::/10): "
            + "off, a station there is refused (`forbidden_address`), so no broker client can scan this host's ports")
    let streamDirectoryURL = Key<String>(
        "stream.directory_url", StreamSettings.defaultDirectoryURL, check: V.directoryURL,
        "*(v1.4)* the station directory the Radio page searches (Radio Browser's API: `/json/stations/search`), an `http://` or "
            + "`https://` address, or `none` to turn searching off (a bare `null` means \"not set\", so the default); "
            + "on loopback it needs `stream.allow_local_addresses`")

    /// The one table.
    static let table = ConfigurationKeys()

    /// Every key, in the order declared above (the stored properties, read by reflection, so a
    /// key declared is a key listed).
    static let all: [any AnyConfigurationKey] = Mirror(reflecting: table).children.flatMap { child -> [any AnyConfigurationKey] in
        if let key = child.value as? any AnyConfigurationKey { return [key] }
        return (child.value as? [DeviceKeys])?.flatMap { [$0.topic, $0.bridge] } ?? []
    }
}

/// One bridged device's keys, from its kind (`BridgedDevice`): where it is and its bridge.
struct DeviceKeys: Sendable {
    let kind: any BridgedDevice.Type
    let topic: ConfigurationKey<String>
    let bridge: ConfigurationKey<String>

    init(_ kind: any BridgedDevice.Type) {
        self.kind = kind
        topic = ConfigurationKey("devices.\(kind.key).topic", nil, check: ConfigurationValidation.topicPrefix, kind.topicDoc)
        bridge = ConfigurationKey("devices.\(kind.key).protocol", "zigbee2mqtt", check: ConfigurationValidation.deviceBridge, kind.bridgeDoc)
    }
}
