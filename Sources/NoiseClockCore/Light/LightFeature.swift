/// The bedside light as a node feature: what it shows and why (`~/light`), the sunrise that
/// follows an alarm, `light/set`. It sends nothing itself: each change it makes is handed to the
/// lamp (`Lamp`, in Devices/) by `NodeCore+Light`, which also copies the lamp's word into
/// `confirmed`. Its sunrise and routine rules run there too, after every advance.
public struct LightFeature: Sendable, Equatable {
    public enum Source: String, Sendable {
        case sunrise, routine, command
    }

    public internal(set) var level: LightLevel = .off
    public internal(set) var source: Source?
    /// Whether the lamp has reported the state last sent (nil: no lamp configured): the lamp's
    /// word (`Lamp.confirmed`), copied here for `~/light`.
    public internal(set) var confirmed: Bool?
    public internal(set) var sunrise: Sunrise?
    /// An occurrence whose sunrise a person overrode: it does not come back for that ring.
    var overridden: Sunrise.Key?
    /// The routine whose light was last put on (it is not put on again after a person changes it).
    var routineShown: String?
    /// The changes made since the lamp was last told, in order (`takeChanges`).
    var changes: [LightChange] = []

    /// How long the light takes to fade off when its sunrise is called off.
    public static let cancelFadeSeconds = 5

    public init() {}

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

    /// Shows `next` (from `source`): the lamp is to glide there over `transition` seconds.
    mutating func show(_ next: LightLevel, source: Source?, transition: Int) {
        level = next
        self.source = next.on ? source : nil
        changes.append(LightChange(level: next, transition: transition))
    }

    /// The changes for the lamp, in order; none are left.
    mutating func takeChanges() -> [LightChange] {
        defer { changes = [] }
        return changes
    }
}
