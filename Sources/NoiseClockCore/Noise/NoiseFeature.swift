/// The noise machine: `noise/*` commands, the sleep timer, previews, the retained `noise` and
/// `sounds` topics and the `noise.json` state file. A value; the node owns one.
public struct NoiseFeature: Sendable, Equatable {
    /// A sound being auditioned (not persisted: a restart ends it).
    public struct Preview: Sendable, Equatable {
        public var sound: String
        public var until: Instant
    }

    public internal(set) var state: NoiseState
    public internal(set) var preview: Preview?

    public static let previewMilliseconds: Int64 = 3000
    /// The sleep timer fades the noise out over its last 30 seconds.
    public static let sleepFadeMilliseconds: Int64 = 30_000

    public init(restoring document: JSONValue?) {
        state = NoiseState(restoring: document)
        preview = nil
    }

    public init(state: NoiseState) {
        self.state = state
        preview = nil
    }

    public var persistent: JSONValue? { state.persistent }

    public typealias Command = NoiseCommand

    /// The result is the noise as published (a preview answers with its sound and end).
    public mutating func apply(
        _ command: NoiseCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        // A command is the user choosing again: the node's own switch is no longer news.
        if command != .preview { state.error = nil }
        switch command {
        case .set: try applySet(payload, context: context)
        case .setSound: state.sound = try Self.soundID(payload, field: "sound", allowed: context.catalog.hasNoise)
        case .setVolume: state.volume = try Self.volume(payload)
        case .setSleepTimer: setSleepTimer(try Self.minutes(payload), now: context.now)
        case .preview:
            // An empty payload previews the selected noise (what Home Assistant's button sends).
            let sound = payload == .empty ? state.sound : try Self.soundID(payload, field: "sound", allowed: context.catalog.hasSound)
            let until = context.now.adding(milliseconds: Self.previewMilliseconds)
            preview = Preview(sound: sound, until: until)
            return ["sound": .string(sound), "until": .string(ISO8601.string(until, in: context.zone))]
        }
        return state.json(zone: context.zone)
    }

    /// The catalog changed (a custom file added, removed or replaced): a selected sound that left
    /// it is replaced by `brown`, saying why on `~/noise`. Returns that reason, nil if it stays.
    public mutating func soundsChanged(catalog: SoundCatalog) -> String? {
        guard !catalog.hasNoise(state.sound) else { return nil }
        let reason = "sound \"\(state.sound)\" is no longer available (its file was removed or cannot be read); playing brown"
        state.sound = NoiseState.defaults.sound
        state.error = reason
        return reason
    }

    /// Ends the sleep timer (stopping the noise) and the preview when their time has come.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {
        if let stopsAt = state.stopsAt, context.now >= stopsAt {
            state.playing = false
            state.sleepTimerMinutes = nil
            state.stopsAt = nil
        }
        if let preview, context.now >= preview.until { self.preview = nil }
    }

    public func nextDeadline(context: FeatureContext) -> Instant? {
        [state.stopsAt, preview?.until].compactMap { $0 }.min()
    }

    /// `~/noise`. (`~/sounds` is the mixes feature's: the catalog changes when the mixes do.)
    public func retained(context: FeatureContext) -> [Publication] {
        [Publication(topic: "noise", body: .json(state.json(zone: context.zone)), retain: true, qos: 1)]
    }

    /// The noise and preview part of what should be audible; the node adds the ringing alarm.
    public func audioScene(context: FeatureContext) -> AudioScene {
        var scene = AudioScene()
        if state.playing {
            let fade = state.stopsAt.map { AudioScene.FadeWindow(start: $0.adding(milliseconds: -Self.sleepFadeMilliseconds), end: $0) }
            scene.noise = AudioScene.Noise(sound: state.sound, volume: state.volume, fadeOut: fade)
            scene.noise?.layers = context.catalog.noiseLayers(of: state.sound) ?? []
        }
        if let preview, context.now < preview.until {
            scene.preview = AudioScene.Preview(sound: preview.sound, volume: state.volume, until: preview.until)
            scene.preview?.layers = context.catalog.noiseLayers(of: preview.sound) ?? []
        }
        return scene
    }

    // MARK: - noise/set

    private mutating func applySet(_ payload: CommandPayload, context: FeatureContext) throws(CommandError) {
        switch payload {
        case .plain(let text), .json(.string(let text)):
            switch text.lowercased() {
            case "on": state.playing = true
            case "off": stop()
            case "toggle": if state.playing { stop() } else { state.playing = true }
            default: throw CommandError.invalidField("playing", "noise/set takes ON, OFF, TOGGLE or a JSON object, got \"\(text.prefix(32))\"")
            }
        case .json(.object(let object)):
            for key in object.keys where !["playing", "sound", "volume", "sleep_timer_minutes", "request_id"].contains(key) {
                throw CommandError.invalidField(
                    key, "unknown field \"\(key.prefix(64))\"; noise/set takes playing, sound, volume, sleep_timer_minutes")
            }
            // All or nothing: a refusal part-way leaves nothing (the transaction works on a copy).
            if let value = object["sound"] {
                guard let id = value.stringValue else { throw CommandError.invalidField("sound", "sound must be a string") }
                state.sound = try Self.checkedSound(id.lowercased(), allowed: context.catalog.hasNoise)
            }
            if let value = object["volume"] {
                state.volume = try FieldCheck.integer(value, "volume", in: NoiseState.volumeRange)
            }
            if let value = object["playing"] {
                guard let playing = value.boolValue else { throw CommandError.invalidField("playing", "playing must be true or false") }
                if playing { state.playing = true } else { stop() }
            }
            if let value = object["sleep_timer_minutes"] {
                let minutes: Int
                if value.isNull { minutes = 0 } else {
                    minutes = try FieldCheck.integer(value, "sleep_timer_minutes", in: NoiseState.sleepTimerRange)
                }
                setSleepTimer(minutes, now: context.now)
            }
        case .json(let other):
            throw CommandError(.invalidJSON, "noise/set takes a JSON object or ON/OFF/TOGGLE, got \(other.typeName)")
        case .empty:
            throw CommandError.invalidField("playing", "noise/set needs ON, OFF, TOGGLE or a JSON object")
        }
    }

    /// Stopping also ends a sleep timer: it has nothing left to stop.
    private mutating func stop() {
        state.playing = false
        state.sleepTimerMinutes = nil
        state.stopsAt = nil
    }

    private mutating func setSleepTimer(_ minutes: Int, now: Instant) {
        if minutes == 0 {
            state.sleepTimerMinutes = nil
            state.stopsAt = nil
        } else {
            state.sleepTimerMinutes = minutes
            state.stopsAt = now.adding(seconds: Int64(minutes) * 60)
        }
    }

    // MARK: - payload parsing

    private static func soundID(_ payload: CommandPayload, field: String, allowed: (String) -> Bool) throws(CommandError) -> String {
        switch payload {
        case .plain(let text), .json(.string(let text)): return try checkedSound(text.lowercased(), allowed: allowed)
        case .json(.object(let object)):
            guard let id = (object["sound"] ?? object["id"])?.stringValue else {
                throw CommandError.invalidField(field, "\(field) must be a sound id")
            }
            return try checkedSound(id.lowercased(), allowed: allowed)
        default: throw CommandError.invalidField(field, "\(field) must be a sound id")
        }
    }

    private static func checkedSound(_ id: String, allowed: (String) -> Bool) throws(CommandError) -> String {
        guard allowed(id) else { throw CommandError(.unknownSound, field: "sound", "no such sound \"\(id.prefix(64))\"; see ~/sounds") }
        return id
    }

    private static func volume(_ payload: CommandPayload) throws(CommandError) -> Int {
        try number(payload, keys: ["volume"], field: "volume", in: NoiseState.volumeRange)
    }

    private static func minutes(_ payload: CommandPayload) throws(CommandError) -> Int {
        try number(payload, keys: ["minutes", "sleep_timer_minutes"], field: "sleep_timer_minutes", in: NoiseState.sleepTimerRange)
    }

    /// `40`, `{"volume": 40}` or plain `40`, checked against `range`.
    private static func number(
        _ payload: CommandPayload, keys: [String], field: String, in range: ClosedRange<Int>
    ) throws(CommandError) -> Int {
        switch payload {
        case .plain(let text): return try FieldCheck.integer(text: text, field, in: range)
        case .json(.object(let object)):
            guard let value = keys.lazy.compactMap({ object[$0] }).first else {
                throw .invalidField(field, "\(field) is missing: send a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return try FieldCheck.integer(value, field, in: range)
        case .json(let value): return try FieldCheck.integer(value, field, in: range)
        case .empty: throw .invalidField(field, "\(field) is missing: send a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
    }
}
