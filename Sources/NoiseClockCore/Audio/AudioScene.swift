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

    /// A ringing alarm: rises from silence at `since` to `volume` over `rampSeconds`, and ducks
    /// the noise while it rings.
    public struct Alarm: Sendable, Equatable {
        public var sound: String
        public var volume: Int
        public var since: Instant
        public var rampSeconds: Int

        public init(sound: String, volume: Int, since: Instant, rampSeconds: Int) {
            self.sound = sound
            self.volume = volume
            self.since = since
            self.rampSeconds = rampSeconds
        }

        /// 0...1: how far the ramp has risen at `now`.
        public func rampFactor(at now: Instant) -> Float {
            guard rampSeconds > 0 else { return 1 }
            let elapsed = Float(now.milliseconds - since.milliseconds) / 1000
            return min(1, max(0, elapsed / Float(rampSeconds)))
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

    public var noise: Noise?
    public var alarm: Alarm?
    public var preview: Preview?

    public init(noise: Noise? = nil, alarm: Alarm? = nil, preview: Preview? = nil) {
        self.noise = noise
        self.alarm = alarm
        self.preview = preview
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
