/// The backup document (`GET /api/backup`, `noiseclock backup`): what a person set on this node,
/// in one JSON object a new node can take whole (`POST /api/restore`, `noiseclock restore`).
///
/// `{"format": "noiseclock-backup", "version": 1, "node_id", "created_at", "node_version",
/// "settings": {…}, "alarms": […], "alarms_paused_until", "routines": […], "timer_presets": […],
/// "mixes": […], "stations": […], "style": {…}, "noise": {…}}`. What the node planned or was doing (an alarm's
/// next occurrence, a ring, a running timer or routine) is not in it: a restored node plans anew.
public enum Backup {
    public static let format = "noiseclock-backup"
    /// The version this node writes; it restores this one and every older one.
    public static let version = 1
    /// Refused before it is parsed: a backup is a few dozen kilobytes (100 alarms ≈ 30 KiB).
    public static let maximumBytes = 1024 * 1024

    /// Every entry, in the document's order (`BackupEntry`: one line per state file's part).
    public static let entries: [BackupEntry] = [
        BackupEntry("alarms", file: NodeCore.StateFile.alarms, key: "alarms", take: without(["pending", "pre_alarm_sent"]),
                    check: BackupChecks.alarms),
        BackupEntry("alarms_paused_until", file: NodeCore.StateFile.alarms, key: "paused_until", empty: .null,
                    check: BackupChecks.pausedUntil),
        BackupEntry("routines", file: NodeCore.StateFile.routines, key: "routines", take: without(["pending"]),
                    check: BackupChecks.routines),
        BackupEntry("timer_presets", file: NodeCore.StateFile.timers, key: "presets", check: BackupChecks.timerPresets),
        BackupEntry("mixes", file: NodeCore.StateFile.mixes, key: "mixes", check: BackupChecks.mixes),
        // v1.3: a backup made before radio has no stations, and restores with none.
        BackupEntry("stations", file: NodeCore.StateFile.stations, key: "stations", optional: true, check: BackupChecks.stations),
        BackupEntry("style", file: NodeCore.StateFile.style, key: "style", empty: .object(JSONObject()), check: BackupChecks.style),
        BackupEntry("noise", file: NodeCore.StateFile.noise, key: nil, empty: .object(JSONObject()),
                    take: { document in
                        // The sound and its volume, not whether it plays: a restore at night
                        // must not start the noise (nor a sleep timer or a routine's noise).
                        guard let object = document.objectValue else { return document }
                        return .object(JSONObject(object.pairs.filter { ["sound", "volume"].contains($0.key) }.map { ($0.key, $0.value) }))
                    }, check: BackupChecks.noise),
    ]

    /// The state files a backup holds (and a restore replaces), each once: the entries' and the
    /// web app's settings.
    public static var files: [String] {
        var seen: [String] = []
        for entry in entries where !seen.contains(entry.file) { seen.append(entry.file) }
        return seen + [SettingsFile.name]
    }

    /// The backup of `documents` (the state files as read from `state_dir`; a missing one is
    /// the node's default: empty lists, default style and noise, no settings). The settings
    /// are whole: the node takes its secrets out unless asked for them (`StateBackup.backup`).
    public static func make(documents: [String: JSONValue], nodeID: String, now: Instant, nodeVersion: String) -> JSONValue {
        let settings = SettingsFile.values(documents[SettingsFile.name])
        var object = JSONObject([
            ("format", .string(format)), ("version", .int(Int64(version))), ("node_id", .string(nodeID)),
            ("created_at", .string(ISO8601.string(now, in: .utc))), ("node_version", .string(nodeVersion)),
            ("settings", .object(settings)),
        ])
        // A file never written holds the defaults (the timers' three presets); of the others, only
        // what this node knows: fields a newer release added stay on disk.
        let known = NodeCore.knownParts(defaultDocuments(now: now).merging(documents) { $1 })
        for entry in entries {
            let document = known[entry.file]
            let stored = entry.key.map { document?[$0] } ?? document
            guard let stored, !stored.isNull else {
                object[entry.name] = entry.empty
                continue
            }
            object[entry.name] = entry.take(stored)
        }
        return .object(object)
    }

    /// Each state file as a node that never wrote it has it.
    static func defaultDocuments(now: Instant) -> [String: JSONValue] {
        let features: [any NodeFeature] = [
            AlarmsFeature(restoring: nil), StyleFeature(restoring: nil, now: now), NoiseFeature(restoring: nil),
            RoutinesFeature(restoring: nil), TimersFeature(restoring: nil), MixesFeature(restoring: nil),
            StationsFeature(restoring: nil),
        ]
        var documents: [String: JSONValue] = [:]
        for feature in features {
            if let file = type(of: feature).stateFile, let document = feature.persistent { documents[file] = document }
        }
        return documents
    }

    /// `pending` and the like out of each object of a list.
    static func without(_ keys: [String]) -> @Sendable (JSONValue) -> JSONValue {
        { value in
            guard let items = value.arrayValue else { return value }
            return .array(items.map { item in
                guard var object = item.objectValue else { return item }
                for key in keys { object[key] = nil }
                return .object(object)
            })
        }
    }
}
