/// The rules between features (issue 38, item 4): what one feature's change means for another.
/// Each is written once, in `Rules/` (a function named as its case), applied in one place
/// (`NodeCore+Rules.swift`), and tested by its name in `FeatureRuleTests`. A feature alone never
/// reaches into another; only these rules do.
public enum FeatureRule: String, CaseIterable, Sendable {
    /// A station an alarm, timer or timer preset would ring is not deleted (`in_use`, naming them).
    case aStationInUseIsNotDeleted
    /// A noise command while a routine plays wins: the routine ends, the noise does what was said.
    case theHandOverridesTheRoutine
    /// A deleted mix or station gives way where the noise or a routine used it: a mix to its first
    /// layer, a station to the default noise.
    case aDeletedSoundGivesWay
    /// `light/set` reaches the lamp at once; its answer says the lamp has not answered yet.
    case theLampIsToldAtOnce
    /// A snooze or dismiss here of a ring with groups is told to those groups' other nodes.
    case theGroupsHearASnoozeOrDismiss
    /// A ring on a station (an alarm, a snooze's end, a timer's end) is connected
    /// `stream.preroll_seconds` early, so the station's first sample plays at the minute.
    case aStationRingIsConnectedEarly
    /// The noise and the clock face follow the active routine.
    case theNoiseFollowsTheRoutine
    /// A finished timer rings through the alarms' ring cycle.
    case aFinishedTimerRings
    /// The light follows an alarm's sunrise and the active routine, and the lamp is told.
    case theLightFollowsTheSunriseAndRoutine
    /// The bridged devices (lamp, shaker) follow the alarms and the routine.
    case theDevicesFollowTheNode
    /// In safe mode a ring on a station plays its fallback tone at once; no station is tried.
    case aSafeModeRingTriesNoStation
    /// A ring the sound device cannot play (or the engine has not confirmed in time) fails over.
    case anUnheardRingFailsOver
}
