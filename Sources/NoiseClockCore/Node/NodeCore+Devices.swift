/// The lamp and the bed shaker follow the alarms; their bridges' reports come back here.
extension NodeCore {
    /// After every feature moved: the sunrise follows the alarms, the shaker the ring.
    mutating func connectDevices(context: FeatureContext, outbox: inout [Publication]) {
        light.follow(alarms.sunrise(now: context.now, zone: context.zone), now: context.now)
        light.follow(routine: routines.active)
        light.awaitAnswer(now: context.now)
        style.follow(face: routines.active?.routine.face?.fields)
        shaker.follow(alarms.ring, now: context.now, zone: context.zone, outbox: &outbox)
        shaker.advance(now: context.now, zone: context.zone, outbox: &outbox)
    }

    /// What the devices need waking for: a sunrise's start, the shaker's and the lamp's answers.
    func deviceDeadlines(context: FeatureContext) -> [Instant] {
        [alarms.nextSunriseStart(after: context.now, zone: context.zone), shaker.deadline, light.answerBy].compactMap { $0 }
    }

    /// A message on a device's state topic. Returns false when it is no device's.
    public mutating func deviceReported(topic: String, payload: [UInt8], now: Instant, outbox: inout [Publication]) -> Bool {
        var known = false
        if let device = light.device, device.stateTopics.contains(topic) {
            known = true
            if let power = device.reportedPower(topic: topic, payload: payload) { light.reported(power: power) }
        }
        if let device = shaker.device, device.stateTopics.contains(topic) {
            known = true
            if let power = device.reportedPower(topic: topic, payload: payload) {
                shaker.reported(power: power, now: now, zone: settings.zone, outbox: &outbox)
            }
        }
        return known
    }

    /// Commands for the devices decided by the last input, handed over once.
    public mutating func takeDeviceCommands() -> [DeviceCommand] {
        light.takeOutgoing() + shaker.takeOutgoing()
    }
}
