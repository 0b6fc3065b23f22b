/// The registry of features: each is a stored property of `NodeCore`, reached through exhaustive
/// switches over `FeatureID` (and `CommandTopic` for commands), so the core's command routing,
/// timing, retained state and files need no per-feature code, and no feature is cast.
extension AlarmsFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.alarms
}

extension StyleFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.style
}

extension NoiseFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.noise
}

extension RoutinesFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.routines
}

extension TimersFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.timers
}

extension MixesFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.mixes
}

extension StationsFeature: NodeFeature {
    public static let stateFile: String? = NodeCore.StateFile.stations
}

extension NodeCore {
    /// Hands one command to the feature that owns it (its transaction: `NodeFeature.handle`). The
    /// voice, the buttons, the devices and safe mode keep no state here: they read the core and
    /// answer with effects (`FeatureOutput.answer`), which the machine carries out.
    mutating func dispatch(
        _ topic: CommandTopic, _ payload: CommandPayload, context: FeatureContext, outbox: inout [Publication],
        effects: inout [FeatureEffect]
    ) -> Result<JSONValue, CommandError> {
        switch topic {
        case .alarms(let command): alarms.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .style(let command): style.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .noise(let command): noise.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .routines(let command): routines.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .timers(let command): timers.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .mixes(let command): mixes.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .light(let command): light.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .stations(let command): stations.handle(command, payload, context: context, outbox: &outbox, effects: &effects)
        case .voice(let command):
            FeatureOutput.answer(outbox: &outbox, effects: &effects) { output throws(CommandError) in
                try speak(command, payload, context: context, output: &output)
            }
        case .buttons(let command):
            FeatureOutput.answer(outbox: &outbox, effects: &effects) { output throws(CommandError) in
                try ButtonBoard.apply(command, payload, output: &output)
            }
        case .devices(let command):
            FeatureOutput.answer(outbox: &outbox, effects: &effects) { output throws(CommandError) in
                try settings.devices.apply(command, payload, output: &output)
            }
        case .safeMode(let command):
            FeatureOutput.answer(outbox: &outbox, effects: &effects) { output throws(CommandError) in
                try applySafeMode(command, payload, output: &output)
            }
        }
    }

    /// Runs `visitor` on the feature named by `id`, in place and as its own type.
    mutating func visit(_ id: FeatureID, _ visitor: inout some FeatureVisitor) {
        switch id {
        case .alarms: visitor.visit(&alarms)
        case .style: visitor.visit(&style)
        case .noise: visitor.visit(&noise)
        case .routines: visitor.visit(&routines)
        case .timers: visitor.visit(&timers)
        case .mixes: visitor.visit(&mixes)
        case .light: visitor.visit(&light)
        case .stations: visitor.visit(&stations)
        }
    }

    /// The feature named by `id`, read-only.
    func feature(_ id: FeatureID) -> any NodeFeature {
        switch id {
        case .alarms: alarms
        case .style: style
        case .noise: noise
        case .routines: routines
        case .timers: timers
        case .mixes: mixes
        case .light: light
        case .stations: stations
        }
    }

    /// Every feature, in `FeatureID` order.
    var features: [any NodeFeature] { FeatureID.allCases.map(feature) }
}

/// Something done to a feature in place, whatever its type: a generic method, so each feature is
/// changed as itself (never boxed and cast back).
protocol FeatureVisitor {
    mutating func visit<Feature: NodeFeature>(_ feature: inout Feature)
}

/// Moves a feature to `context.now`.
struct AdvanceVisitor: FeatureVisitor {
    let context: FeatureContext
    var outbox: [Publication] = []

    mutating func visit<Feature: NodeFeature>(_ feature: inout Feature) {
        feature.advance(context: context, outbox: &outbox)
    }
}

/// Tells a feature the system clock was set.
struct ClockChangeVisitor: FeatureVisitor {
    let context: FeatureContext
    var outbox: [Publication] = []

    mutating func visit<Feature: NodeFeature>(_ feature: inout Feature) {
        feature.clockChanged(context: context, outbox: &outbox)
    }
}
