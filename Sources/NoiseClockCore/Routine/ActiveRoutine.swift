/// The routine playing now. It keeps a copy of the routine as it started, so editing or
/// deleting the routine does not cut its night short.
public struct ActiveRoutine: Hashable, Sendable {
    public var routine: Routine
    /// When the noise began (or began again after a restart): the fade-in counts from here.
    public var startedAt: Instant
    public var endsAt: Instant
    /// When the fade-out begins: `fade_out_seconds` before the end, or at `routine/stop`.
    public var fadeOutFrom: Instant

    public init(routine: Routine, startedAt: Instant, endsAt: Instant) {
        self.routine = routine
        self.startedAt = startedAt
        self.endsAt = endsAt
        fadeOutFrom = Self.fadeOutStart(routine, startedAt: startedAt, endsAt: endsAt)
    }

    static func fadeOutStart(_ routine: Routine, startedAt: Instant, endsAt: Instant) -> Instant {
        max(startedAt, endsAt.adding(seconds: -Int64(routine.fadeOutSeconds)))
    }

    /// The fades the audio engine applies to the routine's noise.
    public var fadeIn: AudioScene.FadeWindow? {
        routine.fadeInSeconds > 0 ? AudioScene.FadeWindow(start: startedAt, end: startedAt.adding(seconds: Int64(routine.fadeInSeconds))) : nil
    }

    public var fadeOut: AudioScene.FadeWindow { AudioScene.FadeWindow(start: fadeOutFrom, end: endsAt) }
}
