import NoiseClockCore

/// A valid and an invalid payload for one command, and what must be in place first. Payloads are
/// JSON objects without `request_id` (the test adds one); ids carry the run's tag (`m` for MQTT, `h`
/// for HTTP) so the two runs on one node do not meet. The invalid payload is sent right after the
/// valid one, so a refusal may come from the state the valid one left (nothing rings any more).
struct ContractExample {
    enum Refused {
        case by(String)
        /// A command that refuses no payload (mqtt-api.md says it ignores it), and why.
        case never(String)
    }

    /// Commands sent first (each must succeed), so the valid payload has something to act on.
    var setup: [(topic: String, payload: String)] = []
    var valid: String
    var refused: Refused
    /// A valid payload whose answer depends on the world outside the node (`station/test` probes a
    /// station): the error code it must be answered with here, still echoing the `request_id`.
    var validAnswered: String?
    /// The invalid payload goes first: the valid one leaves nothing to answer it (`restart`).
    var invalidFirst = false

    /// What the examples take from the running rig: its broker's port (`mqtt/test` probes it) and
    /// the node's own backup (`GET /api/backup`, which `restore` takes back: nothing changes).
    struct Rig {
        var brokerPort: Int
        var backup: String
    }

    init(setup: [(topic: String, payload: String)] = [], valid: String, invalid: String, validAnswered: String? = nil, invalidFirst: Bool = false) {
        self.init(setup: setup, valid: valid, refused: .by(invalid))
        self.validAnswered = validAnswered
        self.invalidFirst = invalidFirst
    }

    init(setup: [(topic: String, payload: String)] = [], valid: String, refused: Refused) {
        self.setup = setup
        self.valid = valid
        self.refused = refused
    }

    /// The example for every command of `CommandName.allCases`. The switches are exhaustive, with no
    /// `default`: a command added to `CommandTopic`, a feature's command enum or
    /// `WebCommand` does not build until it has its example here.
    static func of(_ command: CommandName, tag t: String, rig: Rig) -> ContractExample {
        switch command {
        case .web(let web): Self.web(web, rig: rig)
        case .feature(.alarms(let alarm)): alarms(alarm, tag: t)
        case .feature(.style(.set)): ContractExample(valid: #"{"glow": 20}"#, invalid: #"{"glow": 101}"#)
        case .feature(.style(.preset)): ContractExample(valid: #"{"preset": "night"}"#, invalid: #"{"preset": "dusk"}"#)
        case .feature(.noise(let noise)): Self.noise(noise)
        case .feature(.routines(let routine)): routines(routine, tag: t)
        case .feature(.timers(.start)): ContractExample(valid: #"{"minutes": 20}"#, invalid: #"{"minutes": 0}"#)
        case .feature(.timers(.cancel)):
            ContractExample(setup: [("timer/start", #"{"minutes": 5}"#)], valid: #"{"id": "all"}"#, invalid: #"{"id": 7}"#)
        case .feature(.timers(.setPresets)):
            ContractExample(valid: #"{"presets": [{"id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"}]}"#,
                            invalid: #"{"presets": [{"id": "nap", "minutes": 0}]}"#)
        case .feature(.mixes(.set)):
            ContractExample(valid: mix("\(t)-mix"), invalid: #"{"id": "\#(t)-mix", "name": "Mix", "layers": []}"#)
        case .feature(.mixes(.delete)):
            ContractExample(setup: [("mix/set", mix("\(t)-gone"))], valid: #"{"id": "\#(t)-gone"}"#, invalid: #"{"id": 7}"#)
        case .feature(.light(.set)): ContractExample(valid: #"{"state": "ON", "brightness": 50}"#, invalid: #"{"brightness": 500}"#)
        case .feature(.voice(.say)): ContractExample(valid: #"{"text": "Hi"}"#, invalid: #"{"text": ""}"#)
        case .feature(.voice(.speakTime)): ContractExample(valid: "{}", invalid: #"{"text": "now"}"#)
        case .feature(.voice(.speakNextAlarm)): ContractExample(valid: "{}", invalid: #"{"text": "next"}"#)
        // The node has a button on a local input device (the test's configuration): something to learn from.
        case .feature(.buttons(.learn)): ContractExample(valid: "{}", invalid: #"{"seconds": 5}"#)
        case .feature(.stations(let station)): stations(station, tag: t)
        // The contract's node has no lamp configured: a valid test is answered `not_found` at once.
        case .feature(.devices(.test)): ContractExample(valid: #"{"kind": "light"}"#, invalid: #"{"kind": "toaster"}"#, validAnswered: "not_found")
        // The contract's node is not in safe mode: answered `{"restarting": false}`, and it stays.
        case .feature(.safeMode(.exit)): ContractExample(valid: "{}", invalid: #"{"now": true}"#)
        }
    }

    private static func stations(_ command: StationCommand, tag t: String) -> ContractExample {
        let id = "\(t)-\(command.rawValue.split(separator: "/").last!)"
        let add = ("station/add", station(id))
        switch command {
        case .add: return ContractExample(valid: station(id), invalid: #"{"name": "Jazz", "url": "ftp://127.0.0.1/jazz.mp3"}"#)
        case .update: return ContractExample(setup: [add], valid: #"{"id": "\#(id)", "name": "Later"}"#, invalid: #"{"id": "\#(id)", "url": "nope"}"#)
        case .delete: return ContractExample(setup: [add], valid: #"{"id": "\#(id)"}"#, invalid: #"{"id": 7}"#)
        // Port 9 on loopback refuses at once: the probe answers `stream_unavailable` (cause `refused`) within milliseconds.
        case .test:
            return ContractExample(valid: #"{"url": "http://127.0.0.1:9/\#(t).mp3"}"#, invalid: #"{"url": "ftp://127.0.0.1/\#(t).mp3"}"#,
                                   validAnswered: "stream_unavailable")
        }
    }

    private static func station(_ id: String) -> String {
        #"{"id": "\#(id)", "name": "Jazz", "url": "http://127.0.0.1:9/jazz.mp3"}"#
    }

    private static func alarms(_ command: AlarmCommand, tag t: String) -> ContractExample {
        let id = "\(t)-\(command.rawValue.split(separator: "/").last!)"
        let add = ("alarm/add", #"{"id": "\#(id)", "time": "06:00", "repeat": "daily"}"#)
        let ring = [add, ("alarm/test", #"{"id": "\#(id)"}"#)]
        let byID = ContractExample(setup: [add], valid: #"{"id": "\#(id)"}"#, invalid: #"{"id": 7}"#)
        switch command {
        case .add: return ContractExample(valid: #"{"id": "\#(id)", "time": "06:00"}"#, invalid: #"{"time": "25:00"}"#)
        case .update:
            return ContractExample(setup: [add], valid: #"{"id": "\#(id)", "label": "Later"}"#, invalid: #"{"id": "\#(id)", "volume": 101}"#)
        case .delete, .enable, .disable, .duplicate, .skip, .test: return byID
        case .snooze: return ContractExample(setup: ring, valid: #"{"minutes": 5}"#, invalid: #"{"minutes": 6}"#)
        // Its payload is ignored (mqtt-api.md): refused once nothing rings, as after the valid one.
        case .dismiss: return ContractExample(setup: ring, valid: "{}", invalid: "{}")
        case .check: return ContractExample(valid: "{}", invalid: #"{"now": true}"#)
        case .setAll: return ContractExample(valid: #"{"alarms": [{"id": "\#(id)", "time": "06:00"}]}"#, invalid: #"{"alarms": [{"time": "noon"}]}"#)
        case .pause: return ContractExample(valid: #"{"until": "2099-12-31"}"#, invalid: #"{"until": "2000-01-01"}"#)
        case .resume: return ContractExample(valid: "{}", refused: .never("alarms/resume ignores its payload and cannot fail (mqtt-api.md)"))
        }
    }

    private static func noise(_ command: NoiseCommand) -> ContractExample {
        switch command {
        case .set: ContractExample(valid: #"{"volume": 30}"#, invalid: #"{"volume": 101}"#)
        case .setSound: ContractExample(valid: #"{"sound": "pink"}"#, invalid: #"{"sound": "no-such-sound"}"#)
        case .setVolume: ContractExample(valid: #"{"volume": 35}"#, invalid: #"{"volume": -1}"#)
        case .setSleepTimer: ContractExample(valid: #"{"minutes": 30}"#, invalid: #"{"minutes": -5}"#)
        case .preview: ContractExample(valid: #"{"sound": "rain"}"#, invalid: #"{"sound": "no-such-sound"}"#)
        }
    }

    private static func routines(_ command: RoutineCommand, tag t: String) -> ContractExample {
        let id = "\(t)-r\(command.rawValue.split(separator: "/").last!)"
        let add = ("routine/add", #"{"id": "\#(id)", "start": "22:30"}"#)
        let byID = ContractExample(setup: [add], valid: #"{"id": "\#(id)"}"#, invalid: #"{"id": 7}"#)
        switch command {
        case .add: return ContractExample(valid: #"{"id": "\#(id)", "start": "22:30"}"#, invalid: #"{"start": "noon"}"#)
        case .update:
            return ContractExample(setup: [add], valid: #"{"id": "\#(id)", "label": "Later"}"#, invalid: #"{"id": "\#(id)", "volume": 101}"#)
        case .delete, .enable, .disable, .start: return byID
        case .setAll:
            return ContractExample(valid: #"{"routines": [{"id": "\#(id)", "start": "22:30"}]}"#, invalid: #"{"routines": [{"start": "noon"}]}"#)
        // `not_found` once no routine is active: after the valid one (no fade-out, so it ends at once).
        case .stop:
            let quick = ("routine/add", #"{"id": "\#(id)", "start": "22:30", "fade_out_seconds": 0}"#)
            return ContractExample(setup: [quick, ("routine/start", #"{"id": "\#(id)"}"#)], valid: "{}", invalid: "{}")
        }
    }

    private static func mix(_ id: String) -> String {
        #"{"id": "\#(id)", "name": "Mix", "layers": [{"sound": "brown", "volume": 50}, {"sound": "rain", "volume": 50}]}"#
    }

    /// `payload` with `"request_id": id` added.
    static func carrying(_ id: String, _ payload: String) -> String {
        let rest = payload.dropFirst().drop { $0 == " " }
        return #"{"request_id": "\#(id)""# + (rest.first == "}" ? "}" : ", " + rest)
    }
}
