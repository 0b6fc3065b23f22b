/// The rules between features that sleep programmes bring: the noise follows the active
/// routine, a manual noise command takes over from it, finished timers ring through the alarms'
/// ring cycle, and mixes are noise sounds (in the catalog every feature sees).
extension NodeCore {
    /// The catalog every feature sees: the built-in and custom sounds, and the mixes.
    public var soundCatalog: SoundCatalog { catalog.including(mixes.mixes) }

    /// After every advance: the noise follows the routine, finished timers ring.
    mutating func connectProgrammes(context: FeatureContext, outbox: inout [Publication]) {
        noise.follow(routines.active)
        for timer in timers.takeRings() {
            alarms.ringTimer(timer, now: context.now, zone: context.zone, outbox: &outbox)
        }
    }

    /// What a successful command means beyond its own feature.
    /// `result` is the command's answer, brought up to date when the rule changes what it shows.
    mutating func commandTookEffect(_ message: CommandMessage, result: inout JSONValue, context: FeatureContext, outbox: inout [Publication]) {
        switch message.topic {
        case .noiseSet, .noiseSoundSet, .noiseVolumeSet, .noiseSleepTimerSet:
            // The user's hand wins: the noise does what the command said and the routine ends.
            guard routines.active != nil else { return }
            routines.override(at: context.now, zone: context.zone, outbox: &outbox)
            noise.release()
            result = noise.state.json(zone: context.zone)
        case .mixDelete:
            guard let id = result["id"]?.stringValue, let first = result["layers"]?.arrayValue?.first?["sound"]?.stringValue else { return }
            noise.replaceSound(id, with: first)
            routines.replaceSound(id, with: first)
        default:
            return
        }
    }
}
