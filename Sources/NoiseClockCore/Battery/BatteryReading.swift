/// One look at the node's battery, in the contract's `~/battery` form.
public struct BatteryReading: Sendable, Equatable {
    /// The contract's charging states. (Linux's `Unknown` is read as `notCharging`.)
    public enum Status: String, Sendable, CaseIterable {
        case charging
        case discharging
        case full
        case notCharging = "not_charging"
    }

    /// Level 0–100 and status; nil when the node has no battery (mains power only).
    public let battery: (level: Int, status: Status)?

    /// A battery at `level` percent (clamped to 0–100).
    public init(level: Int, status: Status) {
        battery = (min(max(level, 0), 100), status)
    }

    private init() { battery = nil }

    /// No battery: the node runs on mains power.
    public static let absent = BatteryReading()

    public var present: Bool { battery != nil }
    public var level: Int? { battery?.level }
    public var status: Status? { battery?.status }
    public var charging: Bool { battery?.status == .charging }
    public var color: BatteryLevelColor? { battery.map { BatteryLevelColor(level: $0.level) } }

    /// `{"present": true, "level": 87, "charging": true, "status": "charging", "color": "green"}`,
    /// or `{"present": false, "status": "ac"}` without a battery.
    public var json: JSONValue {
        guard let battery else { return ["present": false, "status": "ac"] }
        return [
            "present": true,
            "level": .int(Int64(battery.level)),
            "charging": .bool(battery.status == .charging),
            "status": .string(battery.status.rawValue),
            "color": .string(BatteryLevelColor(level: battery.level).rawValue),
        ]
    }

    public static func == (lhs: BatteryReading, rhs: BatteryReading) -> Bool {
        lhs.level == rhs.level && lhs.status == rhs.status
    }
}
