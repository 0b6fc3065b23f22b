/// The shape every feature of the node has (alarms, style, noise; routines, timers and mixes
/// next). A feature is a value: it answers its commands, moves forward in time, says when it next
/// needs waking, what it publishes retained and what it keeps on disk. It never does I/O.
///
/// Adding a feature: one folder with a type conforming to this protocol, a case in `FeatureID`,
/// its commands mapped in `CommandTopic.feature`, and a stored property in `NodeCore` reached
/// through `NodeCore.withFeature` (the compiler checks every `switch` over `FeatureID`).
public protocol NodeFeature: Sendable, Equatable {
    /// The state file this feature owns in `state_dir`, if any.
    static var stateFile: String? { get }

    /// Applies one command of this feature. A refused command leaves the value unchanged; one
    /// that changes nothing leaves it equal. Events to publish go into `outbox`.
    mutating func handle(_ message: CommandMessage, context: FeatureContext, outbox: inout [Publication]) -> Result<JSONValue, CommandError>

    /// Fires whatever fell due by `context.now`.
    mutating func advance(context: FeatureContext, outbox: inout [Publication])

    /// The system clock was set: forget plans made on the old clock (most features keep none).
    mutating func clockChanged(context: FeatureContext, outbox: inout [Publication])

    /// The earliest instant this feature needs to be advanced at, if any.
    func nextDeadline(context: FeatureContext) -> Instant?

    /// Retained topics, relative to `~/`.
    func retained(context: FeatureContext) -> [Publication]

    /// The content of `stateFile` (nil: nothing to keep).
    var persistent: JSONValue? { get }
}

extension NodeFeature {
    public mutating func clockChanged(context: FeatureContext, outbox: inout [Publication]) {}

    /// Whether `other` is this very value: what it publishes and keeps is then the same too
    /// (`retained` and `persistent` depend only on the value and the node's settings).
    public func isSame(as other: (any NodeFeature)?) -> Bool { (other as? Self) == self }
}

/// Every feature of the node, for exhaustive dispatch.
public enum FeatureID: String, Sendable, CaseIterable {
    case alarms, style, noise, routines, timers, mixes
}

extension CommandTopic {
    /// The feature that answers this command. A new command that no feature claims does not compile.
    public var feature: FeatureID {
        switch self {
        case .alarmAdd, .alarmUpdate, .alarmDelete, .alarmEnable, .alarmDisable, .alarmDuplicate,
             .alarmSkip, .alarmTest, .alarmSnooze, .alarmDismiss, .alarmCheck, .alarmsSet, .alarmsPause, .alarmsResume:
            .alarms
        case .styleSet, .stylePreset:
            .style
        case .noiseSet, .noiseSoundSet, .noiseVolumeSet, .noiseSleepTimerSet, .noisePreview:
            .noise
        case .routineAdd, .routineUpdate, .routineDelete, .routineEnable, .routineDisable, .routinesSet,
             .routineStart, .routineStop:
            .routines
        case .timerStart, .timerCancel, .timerPresetsSet:
            .timers
        case .mixSet, .mixDelete:
            .mixes
        }
    }
}

extension NodeFeature {
    /// A command as one transaction on a copy: first whatever fell due before it (so an edit at
    /// 07:00:00.3 cannot re-plan past a 07:00 occurrence the wake-up timer has not delivered
    /// yet), then `apply`. The feature and the outbox change only when `apply` succeeds.
    mutating func transaction(
        context: FeatureContext, outbox: inout [Publication],
        _ apply: (inout Self, inout [Publication]) throws(CommandError) -> JSONValue
    ) -> Result<JSONValue, CommandError> {
        var copy = self
        var events: [Publication] = []
        copy.advance(context: context, outbox: &events)
        do {
            let result = try apply(&copy, &events)
            self = copy
            outbox += events
            return .success(result)
        } catch {
            return .failure(error)
        }
    }
}
