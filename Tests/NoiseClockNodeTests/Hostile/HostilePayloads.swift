import NoiseClockCore

/// Deterministic pseudo-random numbers, so a failing run can be replayed by seed.
typealias SeededRandom = SplitMix64

/// Random and mutated commands for the black-box run: valid payloads with bytes flipped,
/// inserted and cut, wrong types for every known field, huge numbers, deep nesting, duplicate
/// keys, odd UTF-8, oversized payloads, and topics the node must ignore.
struct HostilePayloads {
    struct Message {
        let topic: String
        let payload: [UInt8]
        /// Sent to a topic the node subscribes to, so it must answer.
        let expectsResponse: Bool
    }

    let root: String
    var random: SeededRandom

    init(root: String, seed: UInt64) {
        self.root = root
        random = SeededRandom(seed: seed)
    }

    mutating func next() -> Message {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 4 { return oddTopic() }
        // The core features' commands, as before the voice's, the buttons', the devices' and safe
        // mode's joined the table: the same seeded run (and no restart, no speech in it).
        let command = Self.commands.randomElement(using: &random)!
        let prefix = Bool.random(using: &random) ? root : groupRoot
        let payload: [UInt8]
        switch roll {
        case 4..<40: payload = mutate(Array(Self.validPayload(for: command, using: &random).utf8))
        case 40..<55: payload = Array(Self.validPayload(for: command, using: &random).utf8)
        case 55..<75: payload = wrongTypes(for: command)
        case 75..<83: payload = randomBytes(count: Int.random(in: 0...300, using: &random))
        case 83..<90: payload = Array(Self.plainWords.randomElement(using: &random)!.utf8)
        case 90..<96: payload = deepNesting()
        case 96..<99: payload = duplicateKeys()
        default: payload = oversized()
        }
        return Message(topic: "\(prefix)/\(command.rawValue)", payload: payload, expectsResponse: true)
    }

    static let commands = FeatureID.allCases.flatMap(\.commands)

    private var groupRoot: String { root.split(separator: "/").dropLast().joined(separator: "/") + "/all" }

    /// Topics near the command topics that the node does not subscribe to (never its own outputs).
    /// At most 200 levels: mosquitto disconnects a client that publishes deeper topics.
    private mutating func oddTopic() -> Message {
        let topics = [
            "\(root)/alarm/addx", "\(root)/alarm/add/extra", "\(root)/ALARM/ADD", "\(root)/alarm//add",
            "\(root)/noise/volume", "\(groupRoot.uppercased())/noise/set", "\(root)/alarm/add\u{FEFF}",
            "\(root)/알람/add", "\(root)/" + String(repeating: "x/", count: 150) + "add", "\(root)/style/set ",
        ]
        return Message(topic: topics.randomElement(using: &random)!, payload: randomBytes(count: 20), expectsResponse: false)
    }

    static let plainWords = [
        "ON", " off ", "TOGGLE\n", "toggle", "-1", "101", "100", "0", "1e3", "0x10", "NaN", "inf", "", "   \t\n",
        "99999999999999999999999", "-0", "7.5", "brown", "BROWN", "classic", "night", "DAY", "none", "null", "true",
        "\u{0}", "\u{FEFF}40", "４０", "a1", String(repeating: "9", count: 5000),
    ]

    static let huge: [String] = [
        "1e400", "-1e400", "9223372036854775808", "-9223372036854775809", "1e-400", "123456789012345678901234567890",
        "-0", "0.0000001", "4294967296", "2147483648", "1.7976931348623157e308",
    ]

    static func validPayload(for command: CommandTopic, using random: inout SeededRandom) -> String {
        let hour = Int.random(in: 0..<24, using: &random), minute = Int.random(in: 0..<60, using: &random)
        let time = "\(hour):\(minute < 10 ? "0" : "")\(minute)"
        switch command {
        case .alarms(.add): return #"{"time": "\#(time)", "label": "Wake", "repeat": "weekdays", "sound": "classic", "volume": 70, "#
            + #""request_id": "r1"}"#
        case .alarms(.update): return #"{"id": "nope", "time": "7:30 AM", "enabled": true, "skip_next": true}"#
        case .alarms(.delete), .alarms(.enable), .alarms(.disable), .alarms(.duplicate), .alarms(.skip), .alarms(.test): return #"{"id": "nope"}"#
        case .alarms(.snooze): return #"{"minutes": 9}"#
        case .alarms(.dismiss), .alarms(.check): return ""
        case .alarms(.setAll): return #"[{"time": "\#(time)", "repeat": ["mon", "fri"], "date": null, "ring_minutes": 5}]"#
        case .alarms(.pause): return #"{"until": "2099-01-05"}"#
        case .alarms(.resume): return ""
        case .style(.set): return ##"{"use_24_hour": false, "digit_color": "#FF8800", "glow": 50, "font_weight": "bold", "show_seconds": true}"##
        case .style(.preset): return Bool.random(using: &random) ? "night" : "day"
        case .noise(.set): return #"{"playing": true, "sound": "pink", "volume": 55}"#
        case .noise(.setSound): return "rain"
        case .noise(.setVolume): return "\(Int.random(in: 0...100, using: &random))"
        case .noise(.setSleepTimer): return "\(Int.random(in: 0...120, using: &random))"
        case .noise(.preview): return "digital"
        case .routines(.add): return #"{"start": "\#(time)", "end": "06:45", "repeat": "weekdays", "sound": "rain", "volume": 30}"#
        case .routines(.update): return #"{"id": "nope", "fade_in_seconds": 60}"#
        case .routines(.delete), .routines(.enable), .routines(.disable), .routines(.start): return #"{"id": "nope"}"#
        case .routines(.stop): return ""
        case .routines(.setAll): return #"[{"start": "\#(time)", "duration_minutes": 90}]"#
        case .timers(.start): return Bool.random(using: &random) ? "\(Int.random(in: 1...30, using: &random))" : #"{"preset": "nap"}"#
        case .timers(.cancel): return "all"
        case .timers(.setPresets): return #"[{"id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"}]"#
        case .mixes(.set): return #"{"id": "rainy_brown", "name": "Rainy brown", "layers": [{"sound": "rain", "volume": 70}, {"sound": "brown", "#
            + #""volume": 100}]}"#
        case .mixes(.delete): return "rainy_brown"
        case .light(.set): return Bool.random(using: &random) ? "TOGGLE" : ##"{"state": "ON", "brightness": 40, "color": "#FF2200", "##
            + ##""transition": 3}"##
        case .stations(.add): return #"{"name": "Jazz \#(minute)", "url": "http://127.0.0.1:9/jazz.mp3"}"#
        case .stations(.update): return #"{"id": "nope", "name": "Jazz"}"#
        case .stations(.delete): return "nope"
        // An unknown id: answered `not_found` at once, no probe goes out.
        case .stations(.test): return "nope"
        case .voice(.say): return "Hello"
        case .voice(.speakTime), .voice(.speakNextAlarm), .buttons(.learn), .safeMode(.exit): return ""
        case .devices(.test): return #"{"kind": "light"}"#
        }
    }

    private static let fields = [
        "id", "time", "label", "description", "repeat", "date", "sound", "volume", "vibrate", "snooze_minutes", "ramp_seconds",
        "ring_minutes", "pre_alarm_minutes", "light_minutes", "speak_time", "brightness", "kelvin", "transition", "skip_next", "start_volume",
            "pre_alarm_sound", "skip_dates", "until", "enabled", "minutes", "playing", "sleep_timer_minutes", "request_id",
        "use_24_hour", "show_seconds", "digit_color", "background_color", "glow", "scale", "font_family", "font_weight", "random_color",
    ]

    private static let oddValues = [
        "null", "true", "[]", "{}", "\"\"", "[1,2,3]", "{\"a\": {}}", "\"\\u0000\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"",
        "\"25:61\"", "\"#GGGGGG\"", "\"" + String(repeating: "L", count: 2000) + "\"", "-5", "0", "3.14",
    ] + huge

    /// An object whose fields have the wrong type or an absurd value.
    private mutating func wrongTypes(for command: CommandTopic) -> [UInt8] {
        let count = Int.random(in: 1...5, using: &random)
        let pairs = (0..<count).map { _ in
            "\"\(Self.fields.randomElement(using: &random)!)\": \(Self.oddValues.randomElement(using: &random)!)"
        }
        let object = "{" + pairs.joined(separator: ", ") + "}"
        return Array((command == .alarms(.setAll) && Bool.random(using: &random) ? "[\(object)]" : object).utf8)
    }

    private mutating func deepNesting() -> [UInt8] {
        let depth = [20, 32, 33, 64, 1000, 20_000].randomElement(using: &random)!
        let open = Bool.random(using: &random) ? "[" : "{\"a\":"
        let close = open == "[" ? "]" : "}"
        return Array((String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)).utf8)
    }

    private mutating func duplicateKeys() -> [UInt8] {
        let key = Self.fields.randomElement(using: &random)!
        return Array(#"{"\#(key)": 1, "time": "07:00", "\#(key)": "x"}"#.utf8)
    }

    private mutating func oversized() -> [UInt8] {
        let size = [65_536, 65_537, 200_000].randomElement(using: &random)!
        return [UInt8](repeating: UInt8(ascii: "9"), count: size)
    }

    private mutating func randomBytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// One to four byte-level edits, or a number swapped for a huge one.
    private mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
            case 2 where !bytes.isEmpty: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...8, using: &random)))
            case 3 where !bytes.isEmpty: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 12)], at: index)
            case 4:
                if let digit = bytes.firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    bytes.replaceSubrange(digit...digit, with: Array(Self.huge.randomElement(using: &random)!.utf8))
                }
            default: bytes.insert(contentsOf: Array("\"\\\",:[]{}".utf8).shuffled(using: &random).prefix(3), at: index)
            }
        }
        return bytes
    }
}
