/// The alarm that rings next, as the rest of the node needs it (`~/speak/next_alarm` says it): a
/// typed value made by the alarms feature, so no other rule reads the alarms' book or plans.
public struct NextAlarmSummary: Sendable, Equatable {
    public var alarmID: String
    public var label: String
    public var at: Instant

    public init(alarmID: String, label: String, at: Instant) {
        self.alarmID = alarmID
        self.label = label
        self.at = at
    }
}

extension AlarmsFeature {
    /// The alarm that rings next (past pauses, skipped days and `skip_next`); nil: none is set.
    public func nextAlarmSummary(zone: ZoneRules) -> NextAlarmSummary? {
        nextAlarm(zone: zone).map { NextAlarmSummary(alarmID: $0.alarm.id, label: $0.alarm.label, at: $0.at) }
    }
}
