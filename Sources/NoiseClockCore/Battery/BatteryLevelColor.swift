/// The colour band a battery level is shown in.
public enum BatteryLevelColor: String, Sendable, CaseIterable {
    case green
    case yellow
    case orange
    case red

    /// Green 50–100, yellow 20–49, orange 10–19, red below 10. Levels outside 0–100 are clamped.
    public init(level: Int) {
        switch level {
        case 50...: self = .green
        case 20..<50: self = .yellow
        case 10..<20: self = .orange
        default: self = .red
        }
    }
}
