/// The bedside lamp (`devices.light`), a bulb on Zigbee2MQTT or Tasmota. It shows what the light
/// feature asks (`LightFeature`: `light/set`, a sunrise, a routine's light; `NodeCore+Light` hands
/// each change over), in its bridge's words, and must answer within 5 s of the first command it
/// has not answered yet: its word is `~/light`'s `confirmed`, and readiness reports
/// `light_unconfirmed` while its last wait ran out. It never does I/O: commands leave in the outbox.
public struct Lamp: Sendable, Equatable {
    public internal(set) var device: DeviceEndpoint?
    /// What it was last told to show (what a lamp it is re-bound to is shown).
    public internal(set) var level: LightLevel = .off
    /// Whether it has reported the state last sent (nil: nothing sent to this lamp yet).
    public internal(set) var confirmed: Bool?
    public internal(set) var confirmation = DeviceConfirmation()

    public init(device: DeviceEndpoint?) {
        self.device = device
    }

    /// Shows `next`, gliding there over `transition` seconds (without a lamp, only remembered).
    mutating func show(_ next: LightLevel, transition: Int, now: Instant, outbox: inout [Publication]) {
        level = next
        guard let device else { return }
        outbox += Self.commands(next, transition: transition, to: device).map(Publication.device)
        confirmed = false
        confirmation.expect(now: now)
    }

    /// The lamp's word on its power: it answers (whatever it says).
    mutating func reported(power: Bool) {
        guard device != nil else { return }
        confirmed = power == level.on
        confirmation.answered()
    }

    /// By when the lamp must answer (nil: nothing awaited).
    var answerBy: Instant? { confirmation.answerBy }

    /// Whether the lamp answered within 5 s the last time it was awaited (nil: not awaited since the node started).
    public internal(set) var lastCommandAnswered: Bool? {
        get { confirmation.lastAnswered }
        set { confirmation.lastAnswered = newValue }
    }

    /// The light at `level`, gliding there over `transition` seconds, in the words of `device`'s
    /// bridge (contract v1.2, "Light, shaker").
    public static func commands(_ level: LightLevel, transition: Int, to device: DeviceEndpoint) -> [DeviceCommand] {
        switch device.bridge {
        case .zigbee2mqtt:
            var fields: [(String, JSONValue)] = [("state", .string(level.on ? "ON" : "OFF"))]
            if level.on {
                // Zigbee's level is 0–254; 1 % must not round to 0 (off on some lamps).
                fields.append(("brightness", .int(Int64(max(1, min(254, (level.brightness * 254 + 50) / 100))))))
                if let color = level.color {
                    fields.append(("color", .object(JSONObject([("hex", .string(color.hex))]))))
                } else if let kelvin = level.kelvin {
                    fields.append(("color_temp", .int(Int64(LightLevel.mireds(kelvin)))))
                }
            }
            fields.append(("transition", .int(Int64(transition))))
            return [DeviceCommand(topic: "\(device.topic)/set", payload: JSONValue.object(JSONObject(fields)).serialized)]
        case .tasmota:
            // Speed is in half seconds, 1–40; `Fade 1` makes Dimmer/CT/Power glide at that speed.
            var steps = ["Fade 1", "Speed \(max(1, min(40, transition * 2)))"]
            if level.on {
                steps.append("Dimmer \(max(1, min(100, level.brightness)))")
                if let color = level.color {
                    steps.append("Color \(color.hex.dropFirst())")
                } else if let kelvin = level.kelvin {
                    steps.append("CT \(LightLevel.mireds(kelvin))")
                }
            } else {
                steps.append("POWER OFF")
            }
            return [DeviceCommand(topic: "cmnd/\(device.topic)/Backlog", payload: steps.joined(separator: "; "))]
        }
    }
}

/// The lamp as a bridged device: between the light's changes it only counts the 5 s its bridge
/// has to answer; a re-bind switches off the old lamp if it was lit and shows the new one the light.
extension Lamp: BridgedDevice {
    public static let key = "light"
    public static let name = "lamp"
    public static let topicDoc = "the bedside lamp's topic as its bridge names it (`zigbee2mqtt/bedroom_lamp`, Tasmota's `bedroom_bulb`); "
        + "unset: no lamp (`~/light` is published all the same)"
    public static let bridgeDoc = "the lamp's bridge: `zigbee2mqtt` or `tasmota`"

    public mutating func follow(_ node: DeviceSituation, outbox: inout [Publication]) {
        // A wait that ran out makes `lastCommandAnswered` false.
        confirmation.expire(now: node.now)
    }

    public mutating func reported(power: Bool, node: DeviceSituation, outbox: inout [Publication]) {
        reported(power: power)
    }

    public func deviceDeadline(_ node: DeviceSituation) -> Instant? { confirmation.answerBy }

    /// The old lamp switched off if it was lit; the new one shown the light as it is now (a
    /// sunrise under way goes on there), `~/light` unchanged but for `confirmed`.
    public mutating func rebind(to device: DeviceEndpoint?, node: DeviceSituation, outbox: inout [Publication]) {
        if level.on, let old = self.device { outbox += Self.commands(.off, transition: 0, to: old).map(Publication.device) }
        self = Lamp(device: device, showing: level)
        if device != nil, level.on { show(level, transition: 0, now: node.now, outbox: &outbox) }
    }

    public var problem: ReadinessProblem? {
        confirmation.lastAnswered == false
            ? ReadinessProblem(.lightUnconfirmed, "the lamp did not answer within 5 s the last time it was sent a command") : nil
    }

    private init(device: DeviceEndpoint?, showing level: LightLevel) {
        self.device = device
        self.level = level
    }
}
