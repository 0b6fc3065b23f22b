/// The state file `routines.json`: `{"version": 1, "id_counter", "routines": [... with "pending"],
/// "active": {...} | null}`, instants as epoch milliseconds (zone-free).
extension RoutinesFeature {
    /// The format of this state file the node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    public var persistent: JSONValue? {
        let list: [JSONValue] = routines.map { routine in
            var object = routine.jsonObject
            object["pending"] = plans[routine.id].map { .int($0.milliseconds) } ?? .null
            return .object(object)
        }
        let running: JSONValue = active.map { running in
            .object(JSONObject([
                ("routine", running.routine.json),
                ("started_at", .int(running.startedAt.milliseconds)),
                ("ends_at", .int(running.endsAt.milliseconds)),
                ("fade_out_from", .int(running.fadeOutFrom.milliseconds)),
            ]))
        } ?? .null
        return .object(JSONObject([
            ("version", .int(Int64(Self.documentVersion))), ("id_counter", .int(Int64(bitPattern: idCounter))),
            ("routines", .array(list)), ("active", running),
        ]))
    }

    /// Restores from the state file; anything unreadable is dropped, the rest kept. The first
    /// advance after it resumes a routine whose window is still open.
    public init(restoring document: JSONValue?) {
        self.init()
        justRestored = true
        guard let object = document?.objectValue, object["version"]?.intValue == Self.documentVersion else { return }
        idCounter = object["id_counter"]?.intValue.map { UInt64(bitPattern: Int64($0)) } ?? 0
        for item in object["routines"]?.arrayValue ?? [] {
            guard let routine = Routine.restored(item), self[routine.id] == nil, routines.count < Routine.limit else { continue }
            routines.append(routine)
            if routine.enabled, let pending = item["pending"]?.intValue { plans[routine.id] = Instant(milliseconds: Int64(pending)) }
        }
        if let running = object["active"]?.objectValue, let routine = running["routine"].flatMap(Routine.restored),
           let started = running["started_at"]?.intValue, let ends = running["ends_at"]?.intValue {
            var restored = ActiveRoutine(
                routine: routine, startedAt: Instant(milliseconds: Int64(started)), endsAt: Instant(milliseconds: Int64(ends)))
            if let from = running["fade_out_from"]?.intValue { restored.fadeOutFrom = Instant(milliseconds: Int64(from)) }
            active = restored
        }
    }
}
