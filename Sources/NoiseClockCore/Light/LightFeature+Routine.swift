/// A routine with `light` (v1.2): the light shows it while the routine is active (gliding in
/// over its fade-in) and fades off in 5 s after it, unless a person or a sunrise took
/// the light meanwhile.
extension LightFeature {
    mutating func follow(routine active: ActiveRoutine?) {
        guard sunrise == nil else { return }
        if let active, let level = active.routine.light {
            guard routineShown != active.routine.id else { return }
            routineShown = active.routine.id
            show(level, source: .routine, transition: min(active.routine.fadeInSeconds, LightFeature.maxTransitionSeconds))
        } else if routineShown != nil {
            routineShown = nil
            guard source == .routine else { return }
            show(.off, source: nil, transition: Self.cancelFadeSeconds)
        }
    }
}
