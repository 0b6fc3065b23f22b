/// The light between the alarms, the routines and the lamp (a rule between features, kept with
/// the light: the alarms know when a sunrise runs, the light how it rises and what it shows):
/// after every advance the light follows the alarms' sunrise and the active routine, and each
/// change of the light goes to the lamp (`DeviceList.lamp`), whose word is `~/light`'s `confirmed`.
extension NodeCore {
    /// After every advance, before the devices follow: the sunrise and the routine's light.
    mutating func connectLight(context: FeatureContext, outbox: inout [Publication]) {
        light.follow(alarms.sunrise(now: context.now, zone: context.zone), now: context.now)
        light.follow(routine: routines.active)
        lampShowsLight(now: context.now, outbox: &outbox)
    }

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
