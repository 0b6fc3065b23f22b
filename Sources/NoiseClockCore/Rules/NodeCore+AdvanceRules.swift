/// The rules applied after every advance (`FeatureRule`), each written once.
extension NodeCore {
    /// `FeatureRule.theNoiseFollowsTheRoutine` (the face too).
    mutating func theNoiseFollowsTheRoutine() {
        noise.follow(routines.active)
        style.follow(face: routines.active?.routine.face?.fields)
    }

    /// `FeatureRule.aFinishedTimerRings`.
    mutating func aFinishedTimerRings(context: FeatureContext, outbox: inout [Publication]) {
        for timer in timers.takeRings() {
            alarms.ringTimer(timer, now: context.now, zone: context.zone, outbox: &outbox)
        }
    }

    /// `FeatureRule.theLightFollowsTheSunriseAndRoutine`; before the devices follow.
    mutating func theLightFollowsTheSunriseAndRoutine(context: FeatureContext, outbox: inout [Publication]) {
        light.follow(alarms.sunrise(now: context.now, zone: context.zone), now: context.now)
        light.follow(routine: routines.active)
        lampShowsLight(now: context.now, outbox: &outbox)
    }

    /// `FeatureRule.theDevicesFollowTheNode`.
    mutating func theDevicesFollowTheNode(context: FeatureContext, outbox: inout [Publication]) {
        devices.follow(deviceSituation(context), outbox: &outbox)
        lampAnswered()
    }

    /// `FeatureRule.aSafeModeRingTriesNoStation`.
    mutating func aSafeModeRingTriesNoStation(now: Instant) {
        guard settings.safeMode != nil else { return }
        alarms.ringWithoutStation(now: now)
    }

    /// `FeatureRule.anUnheardRingFailsOver`: a ring that fires while the device is unavailable
    /// fails at once; one the engine has not confirmed within 2 s fails then.
    mutating func anUnheardRingFailsOver(now: Instant, outbox: inout [Publication]) {
        let deviceError = audioStatus.flatMap { $0.state == .unavailable ? ($0.error ?? "unavailable") : nil }
        alarms.checkStreamDeadline(timeoutSeconds: settings.stream.timeoutSeconds, now: now)
        alarms.checkAudibility(deviceError: deviceError, streamTimeoutSeconds: settings.stream.timeoutSeconds, now: now,
                               zone: settings.zone, outbox: &outbox)
    }
}
