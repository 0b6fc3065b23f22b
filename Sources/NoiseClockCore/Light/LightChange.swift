/// One change of the light for the lamp to show: where to go and over how many seconds.
public struct LightChange: Sendable, Equatable {
    public var level: LightLevel
    public var transition: Int
}
