/// The bedside light as a node feature: what it shows and why (`~/light`), the sunrise that
/// follows an alarm, `light/set`, and the commands for the lamp (`devices.light`) in its
/// bridge's conventions. It never does I/O: commands leave in the outbox (`Publication.device`),
/// and it is a `BridgedDevice` (`LightFeature+Device`) that follows the alarms and routines.
public struct LightFeature: Sendable, Equatable {
    public enum Source: String, Sendable {
        case sunrise, routine, command
    }

    public internal(set) var device: DeviceEndpoint?
    public internal(set) var level: LightLevel = .off
    public internal(set) var source: Source?
    /// Whether the lamp has reported the state last sent (nil: no lamp configured).
    public internal(set) var confirmed: Bool?
    public internal(set) var sunrise: Sunrise?
    /// An occurrence whose sunrise a person overrode: it does not come back for that ring.
    var overridden: Sunrise.Key?
    /// The routine whose light was last put on (it is not put on again after a person changes it).
    var routineShown: String?
    /// The lamp must say something within 5 s of the first command it has not answered yet;
    /// readiness reports `light_unconfirmed` while its last wait ran out.
    public internal(set) var confirmation = DeviceConfirmation()

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
    mutating func show(_ next: LightLevel, source: Source?, transition: Int, now: Instant, outbox: inout [Publication]) {
        level = next
        self.source = next.on ? source : nil
        guard let device else { return }
        outbox += device.lightCommands(next, transition: transition).map(Publication.device)
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
}
