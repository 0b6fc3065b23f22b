/// The rules between features that sleep programmes bring: the noise follows the active
/// routine, a manual noise command takes over from it, finished timers ring through the alarms'
/// ring cycle, and mixes are noise sounds (in the catalog every feature sees).
extension NodeCore {
    /// The catalog every feature sees: the built-in and custom sounds, the mixes and the stations
    /// (none in safe mode: a station is network input, and may be what crashed the node).
    public var soundCatalog: SoundCatalog { catalog.including(mixes.mixes).including(settings.safeMode == nil ? stations.stations : []) }

    /// After every advance: the noise and the face follow the routine, finished timers ring.
    mutating func connectProgrammes(context: FeatureContext, outbox: inout [Publication]) {
        noise.follow(routines.active)
        style.follow(face: routines.active?.routine.face?.fields)
        for timer in timers.takeRings() {
            alarms.ringTimer(timer, now: context.now, zone: context.zone, outbox: &outbox)
        }
    }

    /// What a successful command means beyond its own feature, read from typed values: the
    /// command, and the core `before` it. `result` is the command's answer, brought up to date
    /// when the rule changes what it shows.
    mutating func commandTookEffect(
        _ topic: CommandTopic, before: NodeCore, result: inout JSONValue, context: FeatureContext, outbox: inout [Publication]
    ) {
        if case .noise(let command) = topic, command.overridesRoutine, routines.active != nil {
            // The user's hand wins: the noise does what the command said and the routine ends.
            routines.override(at: context.now, zone: context.zone, outbox: &outbox)
            noise.release()
            result = noise.state.json(zone: context.zone)
        }
        // A `light/set`: the lamp is told at once, and the answer says it has not answered yet.
        if case .light = topic {
            lampShowsLight(now: context.now, outbox: &outbox)
            result = light.json
        }
        // A mix that went away (`mix/delete`): the noise and routines that used it take its first layer.
        if mixes.mixes != before.mixes.mixes {
            for gone in before.mixes.mixes where !mixes.mixes.contains(where: { $0.id == gone.id }) {
                guard let first = gone.layers.first?.sound else { continue }
                noise.replaceSound(gone.id, with: first)
                routines.replaceSound(gone.id, with: first)
            }
        }
    }
}
