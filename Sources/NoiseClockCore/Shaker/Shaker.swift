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

    public let device: DeviceEndpoint?
    public internal(set) var status: Status = .off
    /// The ring it shakes for (its alarm names the events).
    public internal(set) var ring: RingSession?
    var confirmBy: Instant?
    var outgoing: [DeviceCommand] = []

    public static let confirmWithinMilliseconds: Int64 = 5000

    public init(device: DeviceEndpoint?) {
        self.device = device
    }

    /// Shakes exactly while `session` rings and one of its alarms has `vibrate`.
    mutating func follow(_ session: RingSession?, now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        let wanted = session.flatMap { $0.phase == .ringing && $0.allAlarms.contains(where: \.vibrate) ? $0 : nil }
        let wasOn = status != .off
        // A new ring (after a snooze, `since` is new) switches on again.
        if let wanted, wasOn, ring?.since == wanted.since, ring?.alarm.id == wanted.alarm.id { return }
        if wanted == nil {
            guard wasOn else { return }
            status = .off
            ring = nil
            confirmBy = nil
            if let device { outgoing.append(device.powerCommand(false)) }
            return
        }
        guard let wanted else { return }
        ring = wanted
        guard let device else {
            status = .failed
            emit(.failed, at: now, zone: zone, reason: "no shaker: devices.shaker is not configured", outbox: &outbox)
            return
        }
        status = .starting
        confirmBy = now.adding(milliseconds: Self.confirmWithinMilliseconds)
        outgoing.append(device.powerCommand(true))
    }

    /// The plug's word on its power.
    mutating func reported(power: Bool, now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard status == .starting, power else { return }
        status = .shaking
        confirmBy = nil
        emit(.shaking, at: now, zone: zone, reason: nil, outbox: &outbox)
    }

    /// No word from the plug in time.
    mutating func advance(now: Instant, zone: ZoneRules, outbox: inout [Publication]) {
        guard status == .starting, let confirmBy, confirmBy <= now else { return }
        status = .failed
        self.confirmBy = nil
        emit(.failed, at: now, zone: zone, reason: "the shaker did not confirm it is on within 5 s", outbox: &outbox)
    }

    var deadline: Instant? { confirmBy }

    mutating func takeOutgoing() -> [DeviceCommand] {
        defer { outgoing = [] }
        return outgoing
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
