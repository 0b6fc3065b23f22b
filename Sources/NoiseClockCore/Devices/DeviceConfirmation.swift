/// Whether a bridged device answers: after a command it must say something on its state topic
/// within 5 s. Readiness reports a device whose last wait ran out (`light_unconfirmed`,
/// `shaker_unconfirmed`) until it answers again. A value: the device's rules decide what counts
/// as an answer and when a wait starts; the clock is the `now` they pass.
public struct DeviceConfirmation: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Never awaited since the node started.
        case unknown
        /// A command went out; the device has until `answerBy`.
        case awaiting
        /// It answered the last time it was awaited.
        case confirmed
        /// Its last wait ran out.
        case unconfirmed
    }

    /// By when the device must answer; nil while nothing is awaited.
    public internal(set) var answerBy: Instant?
    /// Whether it answered the last wait in time (nil: never awaited).
    public internal(set) var lastAnswered: Bool?

    public static let withinMilliseconds: Int64 = 5000

    public init() {}

    public var state: State {
        if answerBy != nil { return .awaiting }
        switch lastAnswered {
        case nil: return .unknown
        case true?: return .confirmed
        case false?: return .unconfirmed
        }
    }

    /// A command went out: the wait starts, unless one is running (it counts from the first
    /// command not answered yet). A wait that ran out by `now` counts first.
    public mutating func expect(now: Instant) {
        expire(now: now)
        if answerBy == nil { answerBy = now.adding(milliseconds: Self.withinMilliseconds) }
    }

    /// A command that needs its own answer went out: a new wait from `now`.
    public mutating func expectAnew(now: Instant) {
        answerBy = now.adding(milliseconds: Self.withinMilliseconds)
    }

    /// Nothing is awaited any more (the device was switched off before it answered).
    public mutating func cancel() {
        answerBy = nil
    }

    /// The device answered.
    public mutating func answered() {
        lastAnswered = true
        answerBy = nil
    }

    /// Returns true when the wait ran out by `now` (once: the wait ends then).
    @discardableResult
    public mutating func expire(now: Instant) -> Bool {
        guard let answerBy, answerBy <= now else { return false }
        lastAnswered = false
        self.answerBy = nil
        return true
    }
}
