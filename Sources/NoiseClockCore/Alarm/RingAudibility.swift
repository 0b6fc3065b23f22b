/// The failsafe's view of a ringing alarm: every fire is followed by `sounding` (the audio
/// engine handed audible samples of it to the device) or `failed` (it cannot be heard), within
/// `confirmWithinMilliseconds`. A failed ring keeps trying and turns `sounding` if the device
/// comes back; a sounding one turns `failed` if the device goes away.
public enum RingAudibility: String, Sendable, Hashable {
    /// Fired; no word from the audio engine yet.
    case awaiting
    case sounding
    case failed
    /// The alarm's sound is `none`: nothing to confirm.
    case silent

    public static let confirmWithinMilliseconds: Int64 = 2000

    static func start(_ session: RingSession) -> RingAudibility { session.soundingAlarm == nil ? .silent : .awaiting }
}

/// Names one ring's sound between the core and the audio engine: a snooze's end or a new test
/// rings anew, with a new `since`, and must be confirmed again.
public struct AlarmSoundKey: Sendable, Hashable {
    public var alarmID: String
    public var since: Instant
    /// The fallback tone that replaced the ring's station: a voice of its own, confirmed anew.
    public var streamFallback: Bool

    public init(alarmID: String, since: Instant, streamFallback: Bool = false) {
        self.alarmID = alarmID
        self.since = since
        self.streamFallback = streamFallback
    }
}

/// What the audio engine reports about a ringing alarm's sound.
public struct AlarmSoundReport: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// Audible samples went to the device; `fallback`: the built-in beep, not the alarm's sound.
        case audible(fallback: Bool)
        /// Neither the alarm's sound nor the fallback could be made.
        case unplayable(error: String)
        /// The ring's station cannot be heard (before its first sample, or stalled or silent
        /// while ringing); `cause` as `StreamFallback.causes`.
        case streamFailed(cause: String)
    }

    public var key: AlarmSoundKey
    public var outcome: Outcome

    public init(key: AlarmSoundKey, outcome: Outcome) {
        self.key = key
        self.outcome = outcome
    }
}
