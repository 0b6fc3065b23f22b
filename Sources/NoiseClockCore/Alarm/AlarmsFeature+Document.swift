/// The state file: `{"version": 1, "id_counter": n, "alarms": [...], "ring": {...} | null}`.
/// Each alarm carries its plan (`pending` as epoch milliseconds) so a restart after an outage
/// handles the occurrence it slept through exactly once. Instants are stored as epoch
/// milliseconds, not ISO text, so they do not depend on the configured zone.
extension AlarmsFeature {
    public static let documentVersion = 1

    public var persistent: JSONValue? {
        var alarms: [JSONValue] = []
        for alarm in book.alarms {
            var object = alarm.jsonObject
            let plan = plans[alarm.id]
            object["pending"] = plan?.pending.map { .int($0.milliseconds) } ?? .null
            object["pre_alarm_sent"] = .bool(plan?.preAlarmSent ?? false)
            alarms.append(.object(object))
        }
        return .object(JSONObject([
            ("version", .int(Int64(Self.documentVersion))),
            ("id_counter", .int(Int64(bitPattern: idCounter))),
            ("alarms", .array(alarms)),
            ("ring", ring.map(Self.ringJSON) ?? .null),
            ("paused_until", .optional(pausedUntil?.description)),
        ]))
    }

    /// Restores from a state file; nil or unusable → no alarms. Never throws: each alarm that
    /// cannot be read is dropped and the rest kept. New versions add a loader beside `loadV1`.
    public init(restoring document: JSONValue?) {
        self.init()
        guard let object = document?.objectValue else { return }
        switch object["version"]?.intValue {
        case 1: loadV1(object)
        default: return
        }
    }

    /// Why `document` cannot be restored in full, or nil if it can. The node moves such a file
    /// aside at startup before it writes a new one, so whatever could not be read stays on disk
    /// (a file from a newer version, a hand-edited alarm, a truncated write).
    public static func restoreProblem(_ document: JSONValue) -> String? {
        guard let object = document.objectValue else { return "not a JSON object" }
        guard let version = object["version"]?.intValue else { return "no \"version\"" }
        switch version {
        case 1: return v1Problem(object, restored: AlarmsFeature(restoring: document))
        default: return "version \(version) is not one this node reads"
        }
    }

    private static func v1Problem(_ document: JSONObject, restored: AlarmsFeature) -> String? {
        guard let items = document["alarms"]?.arrayValue else { return "\"alarms\" is not a list" }
        if restored.book.count < items.count {
            return "\(items.count - restored.book.count) of \(items.count) alarms unreadable"
        }
        if let ring = document["ring"], !ring.isNull, restored.ring == nil { return "\"ring\" unreadable" }
        return nil
    }

    private mutating func loadV1(_ document: JSONObject) {
        idCounter = document["id_counter"]?.intValue.map { UInt64(bitPattern: Int64($0)) } ?? 0
        var alarms: [Alarm] = []
        var loadedPlans: [String: Plan] = [:]
        for item in document["alarms"]?.arrayValue ?? [] {
            guard var object = item.objectValue, let alarm = Self.storedAlarm(&object) else { continue }
            alarms.append(alarm)
            // A missing plan is made on the next advance; an explicit null means "nothing pending".
            if alarm.enabled, let pending = object["pending"] {
                loadedPlans[alarm.id] = Plan(pending: pending.intValue.map { Instant(milliseconds: Int64($0)) },
                                             preAlarmSent: object["pre_alarm_sent"]?.boolValue ?? false)
            }
        }
        book = AlarmBook(alarms)
        plans = loadedPlans.filter { book.contains($0.key) }
        if let ringObject = document["ring"]?.objectValue { ring = Self.ring(from: ringObject) }
        pausedUntil = document["paused_until"]?.stringValue.flatMap(CivilDate.init(iso:))
    }

    /// An alarm from its stored fields (plan keys removed from `object`).
    private static func storedAlarm(_ object: inout JSONObject) -> Alarm? {
        var fields = object
        fields["pending"] = nil
        fields["pre_alarm_sent"] = nil
        guard let id = fields["id"]?.stringValue, Alarm.isValidID(id) else { return nil }
        // Sounds were checked when the alarm was stored; the catalog may not be loaded yet.
        var soundless = fields
        soundless["sound"] = nil
        guard var alarm = try? Alarm.parseNew(soundless, newID: id, catalog: .empty) else { return nil }
        if let sound = fields["sound"]?.stringValue, !sound.isEmpty, sound.utf8.count <= 64 { alarm.sound = sound }
        return alarm
    }

    private static func ringJSON(_ session: RingSession) -> JSONValue {
        .object(JSONObject([
            ("phase", .string(session.phase.rawValue)),
            ("alarm", session.alarm.json),
            ("others", .array(session.others.map(\.json))),
            ("scheduled", .int(session.scheduled.milliseconds)),
            ("since", .int(session.since.milliseconds)),
            ("snooze_until", session.snoozeUntil.map { .int($0.milliseconds) } ?? .null),
            ("snooze_count", .int(Int64(session.snoozeCount))),
            ("test", .bool(session.test)),
            ("audibility", .string(session.audibility.rawValue)),
            ("source", .string(session.source.rawValue)),
        ]))
    }

    private static func ring(from object: JSONObject) -> RingSession? {
        func alarm(_ value: JSONValue?) -> Alarm? {
            guard var fields = value?.objectValue else { return nil }
            return storedAlarm(&fields)
        }
        guard let phase = object["phase"]?.stringValue.flatMap(RingSession.Phase.init(rawValue:)),
              let main = alarm(object["alarm"]),
              let scheduled = object["scheduled"]?.intValue, let since = object["since"]?.intValue
        else { return nil }
        var session = RingSession(alarm: main, others: (object["others"]?.arrayValue ?? []).compactMap { alarm($0) },
                                  scheduled: Instant(milliseconds: Int64(scheduled)), since: Instant(milliseconds: Int64(since)),
                                  test: object["test"]?.boolValue ?? false)
        session.phase = phase
        session.snoozeUntil = object["snooze_until"]?.intValue.map { Instant(milliseconds: Int64($0)) }
        session.snoozeCount = object["snooze_count"]?.intValue ?? 0
        if let audibility = object["audibility"]?.stringValue.flatMap(RingAudibility.init(rawValue:)) { session.audibility = audibility }
        session.source = object["source"]?.stringValue.flatMap(RingSource.init(rawValue:)) ?? .alarm
        if phase == .snoozed, session.snoozeUntil == nil { return nil }
        return session
    }
}
