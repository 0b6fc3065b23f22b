/// The buttons on one input device: each bound key's gesture detector, and learn mode (every
/// key reported by name). The device's reader feeds it records and its clock; it answers with
/// what happened, so all the rules stay here and testable without a device.
public struct ButtonPanel: Sendable {
    /// A key of this device bound to a button.
    public struct Binding: Sendable {
        public var button: String
        public var key: InputKey
        public var detector: GestureDetector

        public init(button: String, key: InputKey, detector: GestureDetector) {
            self.button = button
            self.key = key
            self.detector = detector
        }
    }

    /// What the panel reports.
    public enum Event: Sendable, Equatable {
        /// A bound button made a gesture.
        case gesture(button: String, ButtonGesture)
        /// Learn mode: a key went down (any key, bound or not).
        case learned(InputKey)
    }

    private var bindings: [Binding]
    /// Until when (same clock) every key-down is reported as `learned`; nil: not learning.
    public var learningUntil: Double?

    public init(bindings: [Binding]) {
        self.bindings = bindings
    }

    /// When `expire(at:)` must be called next (a hold or double window), nil if nothing waits.
    public var deadline: Double? {
        bindings.compactMap(\.detector.deadline).min()
    }

    public mutating func handle(_ event: InputEvent, at now: Double) -> [Event] {
        var events = expire(at: now)
        guard event.type == InputEvent.keyType else { return events }
        if event.value == 1, let until = learningUntil {
            if now < until {
                events.append(.learned(InputKey(code: event.code)))
            } else {
                learningUntil = nil
            }
        }
        for index in bindings.indices where bindings[index].key.code == event.code {
            let button = bindings[index].button
            events += bindings[index].detector.key(value: event.value, at: now).map { .gesture(button: button, $0) }
        }
        return events
    }

    public mutating func expire(at now: Double) -> [Event] {
        var events: [Event] = []
        for index in bindings.indices {
            let button = bindings[index].button
            events += bindings[index].detector.expire(at: now).map { .gesture(button: button, $0) }
        }
        return events
    }

    /// The device went away: presses in progress are dropped, nothing fires for them.
    public mutating func reset() {
        for index in bindings.indices { bindings[index].detector.reset() }
    }
}
