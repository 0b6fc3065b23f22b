/// What should be audible now. The node computes it from the features after every event and
/// hands it to the audio engine, which realises it with click-free ramps. Times are wall-clock
/// instants so a scene stays right while it plays: the engine evaluates fades and alarm ramps
/// against its own clock every period.
public struct AudioScene: Sendable, Equatable {
    /// The noise bed. `fadeOut` is the window (the last 30 s of a sleep timer) over which the
    /// noise falls to silence; before it the noise plays at full `volume`, after it not at all.
    public struct Noise: Sendable, Equatable {
        public var sound: String
        public var volume: Int
        public var fadeOut: FadeWindow?
        /// A routine's fade-in: silence at its start, full `volume` at its end.
        public var fadeIn: FadeWindow?
        /// What `sound` plays: one layer for a plain noise, 2–4 for a mix (`SoundCatalog.noiseLayers`).
        /// Empty: `sound` alone at full gain.
        public var layers: [Layer] = []
        /// A station's outage is covered by this noise (`stream.fallback_noise`), nil: silence.
        /// Only for a station (`radio:<id>`).
        public var stationFallback: String?

        public init(sound: String, volume: Int, fadeOut: FadeWindow? = nil) {
            self.sound = sound
            self.volume = volume
            self.fadeOut = fadeOut
        }
    }

    public struct FadeWindow: Sendable, Equatable {
        public var start: Instant
        public var end: Instant

        public init(start: Instant, end: Instant) {
            self.start = start
            self.end = end
        }

        /// 1 before the window, 0 after it, linear inside.
        public func factor(at now: Instant) -> Float {
            if now <= start { return 1 }
            if now >= end { return 0 }
            return Float(end.milliseconds - now.milliseconds) / Float(end.milliseconds - start.milliseconds)
        }
    }

    /// A ringing alarm: rises from `startVolume` at `since` to `volume` over `rampSeconds`, and
    /// ducks the noise while it rings. `id` and `since` name the ring (`key`) when the engine
    /// confirms its sound.
    public struct Alarm: Sendable, Equatable {
        public var sound: String
        public var volume: Int
        public var since: Instant
        public var rampSeconds: Int
        public var id: String
        public var startVolume: Int
        /// Playing `StreamSettings.fallbackTone` in place of the ring's station.
        public var streamFallback = false

        public init(sound: String, volume: Int, since: Instant, rampSeconds: Int, id: String = "", startVolume: Int = 0) {
            self.sound = sound
            self.volume = volume
            self.since = since
            self.rampSeconds = rampSeconds
            self.id = id
            self.startVolume = startVolume
        }

        public var key: AlarmSoundKey { AlarmSoundKey(alarmID: id, since: since, streamFallback: streamFallback) }

        /// The wake curve's linear gain at `now`: from `startVolume`'s gain to `volume`'s, in a
        /// straight line over the ramp (with `startVolume` 0, the ramp from silence it always was).
        public func gain(at now: Instant) -> Float {
            let start = AudioScene.gain(volume: startVolume), end = AudioScene.gain(volume: volume)
            return start + (end - start) * rampFactor(at: now)
        }

        /// 0...1: how far the ramp has risen at `now`.
        public func rampFactor(at now: Instant) -> Float {
            guard rampSeconds > 0 else { return 1 }
            let elapsed = Float(now.milliseconds - since.milliseconds) / 1000
            return min(1, max(0, elapsed / Float(rampSeconds)))
        }
    }

    /// The pre-alarm sound: rises from silence at `start` to `volume` at `end` (the alarm time),
    /// where the alarm's own sound takes over by crossfade.
    public struct PreAlarm: Sendable, Equatable {
        public var sound: String
        public var volume: Int
        public var start: Instant
        public var end: Instant
        /// A mix plays as its layers (`SoundCatalog.noiseLayers`); empty: `sound` alone.
        public var layers: [Layer] = []

        public init(sound: String, volume: Int, start: Instant, end: Instant) {
            self.sound = sound
            self.volume = volume
            self.start = start
            self.end = end
        }

        public func gain(at now: Instant) -> Float {
            let span = Float(max(1, end.milliseconds - start.milliseconds))
            let factor = min(1, max(0, Float(now.milliseconds - start.milliseconds) / span))
            return AudioScene.gain(volume: volume) * factor
        }
    }

    /// A short audition of any sound; replaces the noise bed until `until`.
    public struct Preview: Sendable, Equatable {
        public var sound: String
        public var volume: Int
        public var until: Instant
        /// As for the noise: a mix previews as its layers.
        public var layers: [Layer] = []

        public init(sound: String, volume: Int, until: Instant) {
            self.sound = sound
            self.volume = volume
            self.until = until
        }
    }

    /// A station an alarm will ring at `at`, connected `stream.preroll_seconds` ahead so its first
    /// sample plays at the minute: the engine starts its player now, unheard, and the ring's voice
    /// takes it over.
    public struct Preroll: Sendable, Equatable {
        public var sound: String
        public var at: Instant

        public init(sound: String, at: Instant) {
            self.sound = sound
            self.at = at
        }
    }

    public var noise: Noise?
    public var alarm: Alarm?
    public var preview: Preview?
    public var preAlarm: PreAlarm?
    public var preroll: Preroll?
    /// The address of each station (`radio:<id>`) the scene plays: the engine's stream player
    /// connects to it (the catalog of stations is the core's, not the engine's).
    public var stations: [String: String] = [:]

    public init(noise: Noise? = nil, alarm: Alarm? = nil, preview: Preview? = nil, preAlarm: PreAlarm? = nil) {
        self.noise = noise
        self.alarm = alarm
        self.preview = preview
        self.preAlarm = preAlarm
    }

    public static let silence = AudioScene()

    /// How much the noise keeps while an alarm rings (about -20 dB).
    public static let duckFactor: Float = 0.1

    /// Volume 0–100 to linear gain. A square law: close to how loudness is heard, exact at both ends.
    public static func gain(volume: Int) -> Float {
        let v = Float(min(100, max(0, volume))) / 100
        return v * v
    }
}

extension AudioScene {
    /// One sound of a noise or mix, at a linear gain relative to the noise volume.
    public struct Layer: Sendable, Equatable, Hashable {
        public var sound: String
        public var gain: Float

        public init(sound: String, gain: Float) {
            self.sound = sound
            self.gain = gain
        }
    }

    /// The noise's level at `now` (0...1 of its volume's gain) from its fades, before ducking.
    public static func fadeFactor(_ noise: Noise, at now: Instant) -> Float {
        let rise = noise.fadeIn.map { 1 - $0.factor(at: now) } ?? 1
        return rise * (noise.fadeOut?.factor(at: now) ?? 1)
    }
}
