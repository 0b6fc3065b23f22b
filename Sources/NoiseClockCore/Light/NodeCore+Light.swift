/// The light and the lamp: each change of the light goes to the lamp (`DeviceList.lamp`), whose
/// word is `~/light`'s `confirmed`. What the light follows is a rule between features
/// (`FeatureRule.theLightFollowsTheSunriseAndRoutine`, in Rules/).
extension NodeCore {
    /// The lamp is told each change of the light, in order (a `light/set` at once, so its answer
    /// says `confirmed: false` while the lamp has not answered).
    mutating func lampShowsLight(now: Instant, outbox: inout [Publication]) {
        for change in light.takeChanges() {
            devices.lamp.show(change.level, transition: change.transition, now: now, outbox: &outbox)
        }
        lampAnswered()
    }

    /// `~/light` says what the lamp last said.
    mutating func lampAnswered() {
        light.confirmed = devices.lamp.confirmed
    }

    /// The next sunrise's start and the running one's next step.
    func lightDeadline(context: FeatureContext) -> Instant? {
        [alarms.nextSunriseStart(after: context.now, zone: context.zone), light.sunriseDeadline].compactMap { $0 }.min()
    }
}
