/// `button_timing`: how long a key must stay down to be a hold, and how soon after a release a
/// second press makes a double.
public struct ButtonTiming: Sendable, Equatable {
    public static let holdRange: ClosedRange<Double> = 0.5...5
    public static let doubleRange: ClosedRange<Double> = 0.2...1

    public var holdSeconds: Double
    public var doubleSeconds: Double

    public init(holdSeconds: Double = 1.0, doubleSeconds: Double = 0.35) {
        self.holdSeconds = holdSeconds
        self.doubleSeconds = doubleSeconds
    }
}
