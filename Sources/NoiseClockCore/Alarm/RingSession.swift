/// The alarm that is ringing or snoozed now. It holds a copy of the alarm as it fired, so
/// editing or deleting the alarm does not cut the ring short.
public struct RingSession: Hashable, Sendable {
    public enum Phase: String, Sendable {
        case ringing
        case snoozed
    }

    public var phase: Phase
    /// The alarm the state names (the first when several fired together).
    public var alarm: Alarm
    /// Alarms that fired in the same advance, after `alarm`; they share this ring.
    public var others: [Alarm]
    /// The occurrence that fired (for a test: when the test started).
    public var scheduled: Instant
    /// When the current phase began: ringing times out `ring_minutes` after it.
    public var since: Instant
    public var snoozeUntil: Instant?
    public var snoozeCount: Int
    public var test: Bool
    /// Whether the ring has been heard: the failsafe's bookkeeping (see `RingAudibility`).
    public var audibility: RingAudibility
    /// An alarm's ring, or a finished timer's.
    public var source: RingSource = .alarm
    /// A station that could not be heard: the ring sounds the fallback tone (not persisted: a
    /// restarted node tries the station again). See `RingSession+Stream.swift`.
    public var streamFallback: StreamFallback?

    public init(alarm: Alarm, others: [Alarm] = [], scheduled: Instant, since: Instant, test: Bool) {
        phase = .ringing
        self.alarm = alarm
        self.others = others
        self.scheduled = scheduled
        self.since = since
        snoozeUntil = nil
        snoozeCount = 0
        self.test = test
        // As `RingAudibility.start(_:)`: awaiting unless no alarm of the ring has a sound.
        audibility = ([alarm] + others).contains { $0.sound != "none" } ? .awaiting : .silent
    }

    /// The alarm whose sound this ring plays: the first that has one (`none` plays nothing).
    public var soundingAlarm: Alarm? { allAlarms.first { $0.sound != "none" } }

    public var allAlarms: [Alarm] { [alarm] + others }

    /// When ringing stops by itself.
    public var timeout: Instant { since.adding(seconds: Int64(alarm.ringMinutes) * 60) }

    /// The next instant this session changes by itself.
    public var deadline: Instant {
        switch phase {
        case .ringing: timeout
        case .snoozed: snoozeUntil ?? since
        }
    }

    /// By when the audio engine must have confirmed the sound, or the ring is reported `failed`.
    public var soundDeadline: Instant { since.adding(milliseconds: RingAudibility.confirmWithinMilliseconds) }

    /// The audio engine's name for this ring's sound: the alarm and the moment it began ringing.
    public var soundKey: AlarmSoundKey {
        AlarmSoundKey(alarmID: soundingAlarm?.id ?? alarm.id, since: since, streamFallback: activeStreamFallback != nil)
    }

    /// Whether this session rings and `before` (the session an input found) did not ring the
    /// same: a fire, a snooze's end, a finished timer.
    public func beginsRinging(after before: RingSession?) -> Bool {
        guard phase == .ringing else { return false }
        guard let before else { return true }
        return before.phase != .ringing || before.since != since || before.alarm.id != alarm.id
    }
}
