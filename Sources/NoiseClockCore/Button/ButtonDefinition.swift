/// One configured button (mqtt-api.md, v1.2 "Buttons"): where its gestures come from and what
/// each does.
public struct ButtonDefinition: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A key of a local Linux input device (or any path yielding `struct input_event` records).
        case input(device: String, key: InputKey)
        case mqtt(MQTTButtonSource)
    }

    public var id: String
    public var source: Source
    public var press: ButtonAction
    public var double: ButtonAction
    public var hold: ButtonAction

    public init(
        id: String, source: Source, press: ButtonAction = .defaultPress, double: ButtonAction = .defaultDouble,
        hold: ButtonAction = .defaultHold
    ) {
        self.id = id
        self.source = source
        self.press = press
        self.double = double
        self.hold = hold
    }

    public func action(for gesture: ButtonGesture) -> ButtonAction {
        switch gesture {
        case .press: press
        case .double: double
        case .hold: hold
        }
    }

    /// The detector for a local button: gestures bound to `none` are not waited for.
    public func detector(timing: ButtonTiming) -> GestureDetector {
        GestureDetector(timing: timing, detectsDouble: double != .none, detectsHold: hold != .none)
    }
}

/// A button whose bridge reports it over MQTT: Zigbee2MQTT (`{"action": "single"}` on its
/// topic), Tasmota, or anything that publishes one payload per gesture.
public struct MQTTButtonSource: Sendable, Equatable {
    public var topic: String
    /// The JSON field holding the gesture; nil: the plain payload is the gesture.
    public var field: String?
    /// The value that means each gesture (defaults `single`, `double`, `hold`).
    public var values: [ButtonGesture: String]

    public init(topic: String, field: String?, values: [ButtonGesture: String] = MQTTButtonSource.defaultValues) {
        self.topic = topic
        self.field = field
        self.values = values
    }

    public static let defaultValues: [ButtonGesture: String] = [.press: "single", .double: "double", .hold: "hold"]
}
