/// Alarms as a node feature: the book, each alarm's plan, and the ring cycle.
///
/// Timing never polls and never guesses. Every enabled alarm keeps `pending`, the next
/// occurrence not yet handled (persisted). `advance` handles each pending occurrence that is
/// due exactly once — it fires, or reports `missed` when it is `ring_minutes` late or more —
/// and then plans the occurrence after the handled one. A backward clock jump therefore never
/// re-fires, and a forward jump or downtime fires or reports once.
public struct AlarmsFeature: Sendable, Equatable {
    /// What is planned for one alarm.
    public struct Plan: Hashable, Sendable {
        /// The next occurrence not yet handled (skip_next not applied); nil: nothing to ring.
        public var pending: Instant?
        /// The `pre_alarm` event for `pending` went out.
        public var preAlarmSent: Bool

        public init(pending: Instant?, preAlarmSent: Bool = false) {
            self.pending = pending
            self.preAlarmSent = preAlarmSent
        }
    }

    public internal(set) var book: AlarmBook
    /// By alarm id. An enabled alarm without a plan is planned from `now` on the next advance
    /// (alarms restored from a file that had no plans).
    public internal(set) var plans: [String: Plan]
    public internal(set) var ring: RingSession?
    /// Feeds the id generator; persisted so ids stay unique across restarts.
    public internal(set) var idCounter: UInt64
    /// `alarms/pause`: no alarm rings before the start of this day (nil: not paused).
    public internal(set) var pausedUntil: CivilDate?
    /// The last readiness check (not persisted: a restart checks again at once).
    public internal(set) var readiness: AlarmReadiness?

    public init() {
        book = AlarmBook()
        plans = [:]
        ring = nil
        idCounter = 0
        pausedUntil = nil
    }

    /// What the audio side plays: the ringing alarm and when ringing started (nil when idle or snoozed).
    public var ringing: (alarm: Alarm, since: Instant, test: Bool)? {
        guard let ring, ring.phase == .ringing else { return nil }
        return (ring.alarm, ring.since, ring.test)
    }

    /// When the alarm next rings, as published in `next_trigger`: past the pause, skipped days
    /// and `skip_next`.
    public func nextTrigger(of alarm: Alarm, zone: ZoneRules) -> Instant? {
        guard alarm.enabled, let pending = plans[alarm.id]?.pending else { return nil }
        return ringingOccurrence(of: alarm, from: pending, zone: zone)
    }

    /// The earliest instant `advance` has something to do.
    public func nextDeadline(context: FeatureContext) -> Instant? {
        var deadline = ring?.deadline
        func consider(_ instant: Instant) { deadline = min(deadline ?? instant, instant) }
        if let end = pauseEnd(zone: context.zone) { consider(end) }
        for alarm in book.alarms where alarm.enabled {
            guard let plan = plans[alarm.id] else {
                consider(context.now)
                continue
            }
            guard let pending = plan.pending else { continue }
            if alarm.preAlarmMinutes > 0, !plan.preAlarmSent, rings(pending, of: alarm, zone: context.zone) {
                consider(pending.adding(seconds: -Int64(alarm.preAlarmMinutes) * 60))
            } else {
                consider(pending)
            }
        }
        return deadline
    }

    /// `~/alarms` and `~/alarm`, retained.
    public func retained(context: FeatureContext) -> [Publication] {
        [
            Publication(topic: "alarms", body: .json(alarmsJSON(context: context)), retain: true, qos: 1),
            Publication(topic: "alarm", body: .json(stateJSON(context: context)), retain: true, qos: 1),
        ]
    }

    public func output(_ alarm: Alarm, context: FeatureContext) -> JSONValue {
        alarm.output(nextTrigger: nextTrigger(of: alarm, zone: context.zone), zone: context.zone, locale: context.locale)
    }

    public func alarmsJSON(context: FeatureContext) -> JSONValue {
        .array(book.alarms.map { output($0, context: context) })
    }

    /// The AlarmState payload.
    public func stateJSON(context: FeatureContext) -> JSONValue {
        let zone = context.zone
        var next: JSONValue = .null
        if let (alarm, at) = nextAlarm(zone: zone) {
            next = ["id": .string(alarm.id), "label": .string(alarm.label), "at": .string(ISO8601.string(at, in: zone))]
        }
        return .object(JSONObject([
            ("state", .string(ring?.phase.rawValue ?? "idle")),
            ("alarm_id", .optional(ring?.alarm.id)),
            ("label", .optional(ring?.alarm.label)),
            ("since", ISO8601.json(ring?.since, in: zone)),
            ("snooze_until", ISO8601.json(ring?.snoozeUntil, in: zone)),
            ("next", next),
            ("paused_until", .optional(pausedUntil?.description)),
            ("source", .optional(ring?.source.rawValue)),
            ("ready", readiness?.json(zone: zone) ?? .null),
        ]))
    }

    /// The alarm that rings next, and when.
    public func nextAlarm(zone: ZoneRules) -> (alarm: Alarm, at: Instant)? {
        var best: (alarm: Alarm, at: Instant)?
        for alarm in book.alarms {
            guard let at = nextTrigger(of: alarm, zone: zone) else { continue }
            if best == nil || at < best!.at { best = (alarm, at) }
        }
        return best
    }

    /// Plans `alarm` afresh from `now` (after an edit, enable, or restore without a plan).
    /// A pre-alarm already sent for the same occurrence is not sent again.
    mutating func replan(_ alarm: Alarm, now: Instant, zone: ZoneRules) {
        guard alarm.enabled else {
            plans[alarm.id] = nil
            return
        }
        let pending = AlarmSchedule.occurrence(of: alarm, after: now, zone: zone)
        let sent = pending != nil && plans[alarm.id]?.pending == pending && plans[alarm.id]?.preAlarmSent == true
        plans[alarm.id] = Plan(pending: pending, preAlarmSent: sent)
    }

    /// Whether the pending occurrence itself rings (not skipped, not paused).
    func rings(_ pending: Instant, of alarm: Alarm, zone: ZoneRules) -> Bool {
        !alarm.skipNext && !isSilenced(pending, of: alarm, zone: zone)
    }

    /// A fresh id not used by any alarm.
    mutating func makeID(now: Instant) -> String {
        while true {
            idCounter &+= 1
            let id = AlarmIDGenerator.uuid(now: now, counter: idCounter)
            if !book.contains(id) { return id }
        }
    }
}
