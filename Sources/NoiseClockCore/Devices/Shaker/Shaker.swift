/// The bed shaker: a plug (`devices.shaker`) switched on while a `vibrate` alarm or timer rings
/// and off on snooze, dismiss and time-out. The plug must say it is on within 5 s: then
/// `~/alarm/event` `shaking`, otherwise `failed` with `shaker_unconfirmed` (the sound goes on).
public struct Shaker: Sendable, Equatable {
    public enum Status: String, Sendable {
        case off
        /// Switched on, waiting for the plug's word.
        case starting
        case shaking
        case failed
    }

    public internal(set) var device: DeviceEndpoint?
    public internal(set) var status: Status = .off
    /// The ring it shakes for (its alarm names the events).
    public internal(set) var ring: RingSession?
    /// Each start must be confirmed within 5 s; readiness reports `shaker_unconfirmed` while the
    /// last one was not.
    public internal(set) var confirmation = DeviceConfirmation()

    public init(device: DeviceEndpoint?) {
        self.device = device
    }

    /// Whether the last start was confirmed within 5 s (nil: never started since the node started).
    public internal(set) var lastStartConfirmed: Bool? {
        get { confirmation.lastAnswered }
        set { confirmation.lastAnswered = newValue }
    }

    /// Shakes exactly while `session` rings and one of its alarms has `vibrate`.
    mutating func follow(_ session: RingSession?, now: Instant, outbox: inout [Publication]) {
        // Without a `devices.shaker`, `vibrate` is carried in the events and does nothing, as it
        // did before shakers: a node that never had one must not report a failure every morning.
        guard let device else { return }
        let wanted = session.flatMap { $0.phase == .ringing && $0.allAlarms.contains(where: \.vibrate) ? $0 : nil }
        let wasOn = status != .off
        // A new ring (after a snooze, `since` is new) switches on again.
        if let wanted, wasOn, ring?.since == wanted.since, ring?.alarm.id == wanted.alarm.id { return }
        guard let wanted else {
            guard wasOn else { return }
            status = .off
            ring = nil
            confirmation.cancel()
            outbox.append(.device(device.powerCommand(false)))
            return
        }
        ring = wanted
        status = .starting
        confirmation.expectAnew(now: now)
        outbox.append(.device(device.powerCommand(true)))
    }

    /// No word from the plug in time.
    mutating func expire(now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard status == .starting, confirmation.expire(now: now) else { return }
        status = .failed
        emit(.failed, at: now, zone: zone, reason: "the shaker did not confirm it is on within 5 s", outbox: &outbox)
    }

    private func emit(_ event: AlarmEvent, at: Instant, zone: ZoneRules, reason error: String?, outbox: inout [Publication]) {
        guard let ring else { return }
        for alarm in ring.allAlarms where alarm.vibrate {
            guard case .object(var object) = event.payload(alarm: alarm, scheduled: ring.scheduled, at: at, snoozeCount: ring.snoozeCount,
                                                           test: ring.test, zone: zone, source: ring.source)
            else { continue }
            if let error {
                object["reason"] = .string("shaker_unconfirmed")
                object["error"] = .string(error)
            }
            outbox.append(contentsOf: event.publications(.object(object)))
        }
    }
}

/// The shaker as a bridged device: it follows the ring, and its plug must confirm each start.
extension Shaker: BridgedDevice {
    public static let key = "shaker"
    public static let name = "shaker"
    public static let topicDoc =
        "the plug with a bed shaker on it (`zigbee2mqtt/bed_shaker_plug`); unset: no shaker (`vibrate` is only carried in the alarm events)"
    public static let bridgeDoc = "the plug's bridge: `zigbee2mqtt` or `tasmota`"

    public mutating func follow(_ node: DeviceSituation, outbox: inout [Publication]) {
        follow(node.alarms.ring, now: node.now, outbox: &outbox)
        expire(now: node.now, zone: node.zone, outbox: &outbox)
    }

    /// The plug's word on its power: on, while starting, is the confirmation.
    public mutating func reported(power: Bool, node: DeviceSituation, outbox: inout [Publication]) {
        guard status == .starting, power else { return }
        status = .shaking
        confirmation.answered()
        emit(.shaking, at: node.now, zone: node.zone, reason: nil, outbox: &outbox)
    }

    public func deviceDeadline(_ node: DeviceSituation) -> Instant? { confirmation.answerBy }

    /// The old plug switched off if it shook; the new one switched on if the ring still wants it.
    public mutating func rebind(to device: DeviceEndpoint?, node: DeviceSituation, outbox: inout [Publication]) {
        if status != .off, let old = self.device { outbox.append(.device(old.powerCommand(false))) }
        self = Shaker(device: device)
        follow(node, outbox: &outbox)
    }

    public var problem: ReadinessProblem? {
        confirmation.lastAnswered == false
            ? ReadinessProblem(.shakerUnconfirmed, "the bed shaker did not confirm it was on within 5 s the last time it was started") : nil
    }
}
