/// The state file `timers.json`: `{"version": 1, "id_counter", "timers": [...], "presets": [...]}`,
/// instants as epoch milliseconds.
extension TimersFeature {
    /// The format of this state file the node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    public var persistent: JSONValue? {
        let list: [JSONValue] = timers.map { timer in
            .object(JSONObject([
                ("id", .string(timer.id)), ("label", .string(timer.label)), ("seconds", .int(Int64(timer.seconds))),
                ("sound", .string(timer.sound)), ("started_at", .int(timer.startedAt.milliseconds)), ("ends_at", .int(timer.endsAt.milliseconds)),
                ("vibrate", .bool(timer.vibrate)),
            ]))
        }
        return .object(JSONObject([
            ("version", .int(Int64(Self.documentVersion))), ("id_counter", .int(Int64(bitPattern: idCounter))),
            ("timers", .array(list)), ("presets", .array(presets.map(\.json))),
        ]))
    }

    public init(restoring document: JSONValue?) {
        self.init()
        justRestored = true
        guard let object = document?.objectValue, object["version"]?.intValue == Self.documentVersion else { return }
        idCounter = object["id_counter"]?.intValue.map { UInt64(bitPattern: Int64($0)) } ?? 0
        for item in object["timers"]?.arrayValue ?? [] {
            guard let id = item["id"]?.stringValue, Alarm.isValidID(id), let label = item["label"]?.stringValue,
                  let seconds = item["seconds"]?.intValue, let sound = item["sound"]?.stringValue, SoundID.isValid(sound),
                  let started = item["started_at"]?.intValue, let ends = item["ends_at"]?.intValue,
                  timers.count < CountdownTimer.limit, !timers.contains(where: { $0.id == id })
            else { continue }
            timers.append(CountdownTimer(id: id, label: label, seconds: seconds, sound: sound,
                                         startedAt: Instant(milliseconds: Int64(started)), endsAt: Instant(milliseconds: Int64(ends)),
                                         vibrate: item["vibrate"]?.boolValue ?? false))
        }
        if let items = object["presets"]?.arrayValue {
            presets = items.compactMap { try? TimerPreset.parse($0, catalog: .empty) }
        }
    }
}
