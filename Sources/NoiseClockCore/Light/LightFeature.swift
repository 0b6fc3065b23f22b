/// The bedside light as a node feature: what it shows and why (`~/light`), the sunrise that
/// follows an alarm, `light/set`, and the commands for the lamp (`devices.light`) in its
/// bridge's conventions. It never does I/O: commands wait in `outgoing` for the machine to send.
public struct LightFeature: Sendable, Equatable {
    public enum Source: String, Sendable {
        case sunrise, routine, command
    }

    public let device: DeviceEndpoint?
    public internal(set) var level: LightLevel = .off
    public internal(set) var source: Source?
    /// Whether the lamp has reported the state last sent (nil: no lamp configured).
    public internal(set) var confirmed: Bool?
    public internal(set) var sunrise: Sunrise?
    /// An occurrence whose sunrise a person overrode: it does not come back for that ring.
    var overridden: Sunrise.Key?
    /// The routine whose light was last put on (it is not put on again after a person changes it).
    var routineShown: String?
    /// Commands for the lamp, sent by the machine after this input and then cleared.
    var outgoing: [DeviceCommand] = []
    /// By when the lamp must have said something about the commands sent (5 s after the first
    /// one it has not answered yet); nil while nothing is awaited.
    var answerBy: Instant?
    /// Whether the lamp answered within 5 s the last time it was awaited (nil: not awaited since
    /// the node started); readiness reports `light_unconfirmed` while it is false.
    public internal(set) var lastCommandAnswered: Bool?

    public static let answerWithinMilliseconds: Int64 = 5000

    /// How long the light takes to fade off when its sunrise is called off.
    public static let cancelFadeSeconds = 5

    public init(device: DeviceEndpoint?) {
        self.device = device
    }

    /// `~/light`, retained.
    public var json: JSONValue {
        .object(JSONObject([
            ("state", .string(level.on ? "ON" : "OFF")),
            ("brightness", .int(Int64(level.on ? level.brightness : 0))),
            ("kelvin", .optional(level.color == nil ? level.kelvin : nil)),
            ("color", .optional(level.color?.hex)),
            ("source", .optional(source?.rawValue)),
            ("confirmed", confirmed.map { .bool($0) } ?? .null),
        ]))
    }

    /// Shows `next` (from `source`), telling the lamp to glide there over `transition` seconds.
    mutating func show(_ next: LightLevel, source: Source?, transition: Int) {
        level = next
        self.source = next.on ? source : nil
        guard let device else { return }
        outgoing += device.lightCommands(next, transition: transition)
        confirmed = false
    }

    /// The lamp's word on its power: it answers (whatever it says).
    mutating func reported(power: Bool) {
        guard device != nil else { return }
        confirmed = power == level.on
        lastCommandAnswered = true
        answerBy = nil
    }

    /// After an input: a wait run out makes `lastCommandAnswered` false, and commands about to go
    /// out start the 5 s wait for the lamp's answer (unless one is running).
    mutating func awaitAnswer(now: Instant) {
        if let answerBy, answerBy <= now {
            lastCommandAnswered = false
            self.answerBy = nil
        }
        if !outgoing.isEmpty, answerBy == nil { answerBy = now.adding(milliseconds: Self.answerWithinMilliseconds) }
    }

    /// Commands waiting to go out, handed over once.
    mutating func takeOutgoing() -> [DeviceCommand] {
        defer { outgoing = [] }
        return outgoing
    }
}
