/// Turns one key's downs and ups into gestures, with the time given by the caller (a monotonic
/// clock in seconds), so it is pure and its tests need no waiting.
///
/// - `hold`: the key has been down `holdSeconds` (fires before the release, once).
/// - `double`: a second key-down within `doubleSeconds` of the first release (fires on that down).
/// - `press`: otherwise, once no double can follow any more.
///
/// A gesture the button does not use (bound to `none`) is not waited for: a button without
/// `double` and `hold` acts on key-down at once; without `double`, a press fires on release.
/// The caller calls `expire(at:)` when `deadline` comes (the reader's poll timeout).
public struct GestureDetector: Sendable, Equatable {
    public let timing: ButtonTiming
    public let detectsDouble: Bool
    public let detectsHold: Bool

    enum State: Sendable, Equatable {
        case idle
        /// Down since `since`; nothing fired yet.
        case down(since: Double)
        /// Still down, but this press already made its gesture (hold, double, or a press-only press).
        case spent
        /// Released at `at`: a press, unless a second down comes before `at + doubleSeconds`.
        case released(at: Double)
    }

    private(set) var state = State.idle

    public init(timing: ButtonTiming, detectsDouble: Bool = true, detectsHold: Bool = true) {
        self.timing = timing
        self.detectsDouble = detectsDouble
        self.detectsHold = detectsHold
    }

    /// Acts on key-down, with no wait for a double or a hold.
    public var isPressOnly: Bool { !detectsDouble && !detectsHold }

    /// When `expire(at:)` must be called next; nil while nothing is pending.
    public var deadline: Double? {
        switch state {
        case .down(let since) where detectsHold: since + timing.holdSeconds
        case .released(let at): at + timing.doubleSeconds
        default: nil
        }
    }

    /// A key record's value: 1 down, 0 up; 2 (auto-repeat) and anything else change nothing.
    public mutating func key(value: Int32, at now: Double) -> [ButtonGesture] {
        switch value {
        case 1: down(at: now)
        case 0: up(at: now)
        default: []
        }
    }

    public mutating func down(at now: Double) -> [ButtonGesture] {
        var fired = expire(at: now)
        switch state {
        case .idle:
            if isPressOnly {
                state = .spent
                fired.append(.press)
            } else {
                state = .down(since: now)
            }
        case .released:
            state = .spent
            fired.append(.double)
        case .down, .spent:
            break  // a second down without an up (a lost record): still the same press
        }
        return fired
    }

    public mutating func up(at now: Double) -> [ButtonGesture] {
        var fired = expire(at: now)
        switch state {
        case .down:
            if detectsDouble {
                state = .released(at: now)
            } else {
                state = .idle
                fired.append(.press)
            }
        case .spent:
            state = .idle
        case .idle, .released:
            break  // an up without its down (the reader started while the key was held)
        }
        return fired
    }

    /// Fires what is due by `now`: a hold whose time has come, or a press no double followed.
    public mutating func expire(at now: Double) -> [ButtonGesture] {
        guard let deadline, now >= deadline else { return [] }
        switch state {
        case .down:
            state = .spent
            return [.hold]
        case .released:
            state = .idle
            return [.press]
        case .idle, .spent:
            return []
        }
    }

    /// Forgets a press in progress (the device went away); nothing fires.
    public mutating func reset() {
        state = .idle
    }
}
