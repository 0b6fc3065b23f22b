/// The lamp as a bridged device: after every input it follows the alarms' sunrise and the
/// running routine, and counts the 5 s its bridge has to answer. Its sunrise timing is its own:
/// when the next sunrise starts (the alarms say which), and each step of the one under way.
extension LightFeature: BridgedDevice {
    public static let key = "light"
    public static let name = "lamp"
    public static let topicDoc = "the bedside lamp's topic as its bridge names it (`zigbee2mqtt/bedroom_lamp`, Tasmota's `bedroom_bulb`); "
        + "unset: no lamp (`~/light` is published all the same)"
    public static let bridgeDoc = "the lamp's bridge: `zigbee2mqtt` or `tasmota`"

    public mutating func follow(_ node: DeviceSituation, outbox: inout [Publication]) {
        follow(node.alarms.sunrise(now: node.now, zone: node.zone), now: node.now, outbox: &outbox)
        follow(routine: node.routine, now: node.now, outbox: &outbox)
        // A wait that ran out makes `lastCommandAnswered` false.
        confirmation.expire(now: node.now)
    }

    public mutating func reported(power: Bool, node: DeviceSituation, outbox: inout [Publication]) {
        reported(power: power)
    }

    /// The next sunrise's start, the running one's next step, the end of the wait for an answer.
    public func deviceDeadline(_ node: DeviceSituation) -> Instant? {
        [node.alarms.nextSunriseStart(after: node.now, zone: node.zone), sunriseDeadline, confirmation.answerBy].compactMap { $0 }.min()
    }

    /// The old lamp switched off if it was lit; the new one shown the light as it is now (a
    /// sunrise under way goes on there), `~/light` unchanged but for `confirmed`.
    public mutating func rebind(to device: DeviceEndpoint?, node: DeviceSituation, outbox: inout [Publication]) {
        if level.on, let old = self.device { outbox += old.lightCommands(.off, transition: 0).map(Publication.device) }
        self.device = device
        confirmation = DeviceConfirmation()
        confirmed = nil
        if device != nil, level.on { show(level, source: source, transition: 0, now: node.now, outbox: &outbox) }
    }

    public var problem: ReadinessProblem? {
        confirmation.lastAnswered == false
            ? ReadinessProblem(.lightUnconfirmed, "the lamp did not answer within 5 s the last time it was sent a command") : nil
    }
}
