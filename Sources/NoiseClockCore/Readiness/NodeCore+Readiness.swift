/// Readiness: the machine asks the adapters to look (`ReadinessProbe`) when the schedule says
/// so, and the answer becomes `~/alarm` `ready` and the `at_risk` / `ready` events.
extension NodeCore {
    /// How far ahead an alarm's station is probed at each check.
    static let stationProbeHorizonSeconds: Int64 = 12 * 3600

    var readinessTarget: ReadinessSchedule.Target? {
        alarms.nextAlarm(zone: settings.zone).map { ReadinessSchedule.Target(alarmID: $0.alarm.id, at: $0.at) }
    }

    /// Not while an alarm rings or is snoozed: the failsafe watches that ring, and a fire (which
    /// changes the next alarm) must not start a device check on every node at the same instant.
    public func readinessDue(now: Instant) -> Bool {
        alarms.ring == nil && readinessSchedule.isDue(target: readinessTarget, now: now)
    }

    var readinessDeadline: Instant? { alarms.ring == nil ? readinessSchedule.deadline(target: readinessTarget) : nil }

    /// Starts a check: what to probe (the next alarm's sound, unless it is `none`).
    public mutating func readinessRequested(now: Instant) -> ReadinessProbe {
        readinessSchedule.inFlight = true
        readinessSchedule.checkedFor = .some(readinessTarget)
        let next = alarms.nextAlarm(zone: settings.zone)
        let sound = next?.alarm.sound
        // A station is probed only for an alarm within 12 h: no network use for next week's.
        var station: Station?
        if let next, next.at <= now.adding(seconds: Self.stationProbeHorizonSeconds), let sound {
            station = soundCatalog.station(ofSound: sound)
        }
        return ReadinessProbe(sound: sound == "none" ? nil : sound, stationURL: station?.url, stationID: station?.id,
                              directoryID: station?.directoryID)
    }

    /// The adapters' answer: `ready` on `~/alarm`; `at_risk` when the next alarm has a problem
    /// no `at_risk` named for it yet, `ready` when an `at_risk`'s problems have gone.
    public mutating func readinessReported(_ report: ReadinessReport, now: Instant, outbox: inout [Publication]) {
        readinessSchedule.inFlight = false
        readinessSchedule.lastCheck = now
        if report.clockSynced != clockSynced { clockSynced = report.clockSynced }
        // A moved station found again and heard: its new address from now on (mqtt-api v1.4).
        if let heal = report.healed { _ = stations.heal(heal) }
        var problems = report.problems
        problems += devices.problems
        if let safeMode = settings.safeMode { problems.insert(safeMode.problem, at: 0) }
        alarms.readiness = AlarmReadiness(checkedAt: now, problems: problems)
        let event = readinessWarnings.judge(problems, target: readinessTarget)
        guard let event else { return }
        let next = alarms.nextAlarm(zone: settings.zone)
        outbox.append(.event("alarm/event", .object(JSONObject([
            ("event", .string(event.rawValue)),
            ("id", .optional(next?.alarm.id)),
            ("label", .optional(next?.alarm.label)),
            ("next", next.map { .string(ISO8601.string($0.at, in: settings.zone)) } ?? .null),
            ("problems", alarms.readiness!.json(zone: settings.zone).objectValue?["problems"] ?? .array([])),
            ("at", .string(ISO8601.string(now, in: settings.zone))),
        ]))))
    }
}
