/// What a device may read of the node when it follows it: typed values, never another
/// feature's JSON.
public struct DeviceSituation: Sendable {
    public var context: FeatureContext
    public var alarms: AlarmsFeature
    /// The routine running now, if any.
    public var routine: ActiveRoutine?
    /// The noise machine (whether it plays, what, how loud).
    public var noise: NoiseFeature

    public var now: Instant { context.now }
    public var zone: ZoneRules { context.zone }
}
