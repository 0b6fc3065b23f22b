/// The registry of features: each is a stored property of `NodeCore`, reached through one
/// exhaustive switch, so the core's command routing, timing, retained state and files need no
/// per-feature code.
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

extension NodeCore {
    /// Runs `body` on the feature named by `id`, in place.
    mutating func withFeature<R>(_ id: FeatureID, _ body: (inout any NodeFeature) -> R) -> R {
        switch id {
        case .alarms: return Self.mutate(&alarms, body)
        case .style: return Self.mutate(&style, body)
        case .noise: return Self.mutate(&noise, body)
        case .routines: return Self.mutate(&routines, body)
        case .timers: return Self.mutate(&timers, body)
        case .mixes: return Self.mutate(&mixes, body)
        case .light: return Self.mutate(&light, body)
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
        }
    }

    /// Every feature, in the order their timing and retained topics go out.
    var features: [any NodeFeature] { FeatureID.allCases.map(feature) }

    private static func mutate<F: NodeFeature, R>(_ value: inout F, _ body: (inout any NodeFeature) -> R) -> R {
        var boxed: any NodeFeature = value
        let result = body(&boxed)
        value = boxed as! F  // swiftlint:disable:this force_cast — body only mutates, never replaces the type
        return result
    }
}
