/// What the noise machine is doing, as published on `~/noise`:
/// `{"playing": true, "sound": "brown", "volume": 40, "sleep_timer_minutes": 30 | null, "stops_at": iso | null}`.
public struct NoiseState: Sendable, Equatable {
    public var playing: Bool
    public var sound: String
    public var volume: Int
    public var sleepTimerMinutes: Int?
    public var stopsAt: Instant?
    /// The routine playing this noise (its id), nil when the noise was started by hand.
    public var routine: String?
    /// Why the node switched the noise to another sound by itself (its custom file went away);
    /// cleared by the next noise command. Not persisted.
    public var error: String?
    /// The last title a station's stream announced (the engine's stream player); shown while the
    /// noise plays that station. Not persisted.
    public var title: StationTitle?
    /// The playing station's outage, while it lasts (the engine's word). Not persisted.
    public var outage: StationOutage?
    /// Why the sound device does not play, while it does not (`~/audio`'s error). Not persisted:
    /// `playing` keeps meaning "the owner asked for it", so the noise resumes when the device does.
    public var deviceProblem: String?

    public init(playing: Bool = false, sound: String = "brown", volume: Int = 40, sleepTimerMinutes: Int? = nil, stopsAt: Instant? = nil) {
        self.playing = playing
        self.sound = sound
        self.volume = volume
        self.sleepTimerMinutes = sleepTimerMinutes
        self.stopsAt = stopsAt
    }

    public static let defaults = NoiseState()
    public static let volumeRange = 0...100
    /// A sleep timer of at most a day; 0 clears it.
    public static let sleepTimerRange = 0...1440

    public func json(zone: ZoneRules) -> JSONValue {
        [
            "playing": .bool(playing), "sound": .string(sound), "volume": .int(Int64(volume)),
            "sleep_timer_minutes": .optional(sleepTimerMinutes),
            "stops_at": .optional(stopsAt.map { ISO8601.string($0, in: zone) }),
            "routine": .optional(routine), "error": .optional(error ?? deviceMessage ?? outageMessage),
            // v1.3: the station playing (its id) and its current title (ICY, from the stream player).
            "station": .optional(Station.stationID(ofSound: sound)), "title": .optional(shownTitle),
        ]
    }

    /// v1.4 "Noise that cannot be heard says so": set whenever the noise plays and the sound
    /// device does not, cleared when it does.
    var deviceMessage: String? {
        guard playing, let deviceProblem else { return nil }
        return "audio_unavailable: \(deviceProblem)"
    }

    /// Why the station playing now cannot be heard, while it cannot.
    var outageMessage: String? {
        guard playing, let outage, outage.sound == sound else { return nil }
        return outage.message
    }

    /// The title of the station playing now, if its stream named one.
    var shownTitle: String? {
        guard playing, let title, title.sound == sound, let text = title.title, !text.isEmpty else { return nil }
        return text
    }

    /// The format of `noise.json` this node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    /// The state file: `{"version": 1, ...}` with `stops_at` in epoch milliseconds (zone-free).
    public var persistent: JSONValue {
        [
            "version": .int(Int64(Self.documentVersion)), "playing": .bool(playing), "sound": .string(sound), "volume": .int(Int64(volume)),
            "sleep_timer_minutes": .optional(sleepTimerMinutes),
            "stops_at_ms": stopsAt.map { .int($0.milliseconds) } ?? .null,
            "routine": .optional(routine),
        ]
    }

    /// Reads a state file; anything missing or malformed falls back to the defaults.
    public init(restoring document: JSONValue?) {
        self = .defaults
        guard let object = document?.objectValue, object["version"]?.intValue == Self.documentVersion else { return }
        if let playing = object["playing"]?.boolValue { self.playing = playing }
        if let sound = object["sound"]?.stringValue, SoundID.isValid(sound) { self.sound = sound }
        if let volume = object["volume"]?.intValue, Self.volumeRange.contains(volume) { self.volume = volume }
        if let minutes = object["sleep_timer_minutes"]?.intValue, minutes > 0, let ms = object["stops_at_ms"]?.intValue {
            sleepTimerMinutes = minutes
            stopsAt = Instant(milliseconds: Int64(ms))
        }
        if let id = object["routine"]?.stringValue, Alarm.isValidID(id) { routine = id }
    }
}
