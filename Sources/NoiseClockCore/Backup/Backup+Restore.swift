/// Reading a backup to restore it: the whole document checked before anything is written.
extension Backup {
    /// A backup that passed every check: the state files to write, whole.
    public struct Contents: Sendable, Equatable {
        /// State file name → the document to write (every file of `Backup.files`, `settings.json` too).
        public var documents: [String: JSONValue]
        /// The values the backup's node had changed from its web app.
        public var settings: JSONObject
        /// The node the backup was taken from.
        public var nodeID: String
        /// How many items each list entry holds (the answer to a restore says what came back).
        public var counts: JSONObject
    }

    /// The keys of the document that are not entries (`request_id`: `POST /api/restore` echoes it).
    static let headerKeys: Set<String> = ["format", "version", "node_id", "created_at", "node_version", "settings", "request_id"]

    /// Parses and checks `bytes` as a backup: the format, the version, every entry through its
    /// command's checks, then every state file made from them through the node's own loader, so
    /// that what is written is read back in full at the next start. Nothing is written here.
    public static func read(_ bytes: [UInt8]) -> Result<Contents, BackupRefusal> {
        do { return .success(try contents(bytes)) } catch { return .failure(error) }
    }

    static func contents(_ bytes: [UInt8]) throws(BackupRefusal) -> Contents {
        guard bytes.count <= maximumBytes else {
            throw BackupRefusal("backup", "\(bytes.count) bytes; a backup is at most \(maximumBytes / 1024) KiB")
        }
        let document: JSONValue
        do { document = try JSONParser(maxDepth: 64).parse(bytes) } catch {
            throw BackupRefusal("backup", "not valid JSON (\(error.description)); was the file cut short?")
        }
        guard let object = document.objectValue else { throw BackupRefusal("backup", "must be a JSON object, got \(document.typeName)") }
        guard object["format"]?.stringValue == format else {
            throw BackupRefusal("format", "must be \"\(format)\" (this is not a NoiseClock backup)")
        }
        guard let given = object["version"]?.intValue, given >= 1 else { throw BackupRefusal("version", "must be a whole number ≥ 1") }
        guard given <= version else {
            throw BackupRefusal("version", "version \(given) was written by a newer NoiseClock; this node reads up to \(version): update it first")
        }
        let nodeID = object["node_id"]?.stringValue ?? ""
        // Each value is checked by the node's configuration loader (`WebSettings`), not here.
        let settings = try BackupChecks.object(object["settings"] ?? .object(JSONObject()), "settings")
        let names = Set(entries.map(\.name))
        if let unknown = object.keys.first(where: { !headerKeys.contains($0) && !names.contains($0) }) {
            throw BackupRefusal(String(unknown.prefix(64)), "not an entry this node knows; restoring without it would lose it")
        }
        var documents: [String: JSONObject] = [:]
        var counts = JSONObject()
        for entry in entries {
            var value = object[entry.name]
            if value == nil, entry.optional { value = entry.empty }
            guard let given = value else { throw BackupRefusal(entry.name, "missing: a backup holds every entry (a partial one is refused)") }
            try entry.check(given, entry.name)
            // What a person set, as a backup holds it: a hand-made or older backup's running
            // state (`playing`, an alarm's `pending`) is not restored either.
            let kept = entry.take(given)
            if let items = kept.arrayValue { counts[entry.name] = .int(Int64(items.count)) }
            var file = documents[entry.file] ?? JSONObject([("version", .int(Int64(NodeCore.documentVersions[entry.file] ?? 1)))])
            if let key = entry.key {
                file[key] = kept
            } else {
                for (key, field) in kept.objectValue?.pairs ?? [] { file[key] = field }
            }
            documents[entry.file] = file
        }
        var written = documents.mapValues { JSONValue.object($0) }
        try loadable(written)
        // A node restored from a backup is set up: its owner brought the setup back (v1.4's wizard is not offered again).
        written[SettingsFile.name] = SettingsFile.document(settings, setupDone: true)
        return Contents(documents: written, settings: settings, nodeID: nodeID, counts: counts)
    }

    /// The node's loader keeps every item of the files made (the checks above are the commands';
    /// this is the start's): a file it would set aside or thin out is refused here, naming the entry.
    static func loadable(_ documents: [String: JSONValue]) throws(BackupRefusal) {
        for (file, document) in documents {
            if let problem = NodeCore.restoreProblem(file: file, document: document) {
                throw BackupRefusal(entries.first { $0.file == file }?.name ?? file, problem)
            }
        }
        let kept: [(String, Int, Int?)] = [
            ("alarms", AlarmsFeature(restoring: documents[NodeCore.StateFile.alarms]).book.count,
             documents[NodeCore.StateFile.alarms]?["alarms"]?.arrayValue?.count),
            ("routines", RoutinesFeature(restoring: documents[NodeCore.StateFile.routines]).routines.count,
             documents[NodeCore.StateFile.routines]?["routines"]?.arrayValue?.count),
            ("timer_presets", TimersFeature(restoring: documents[NodeCore.StateFile.timers]).presets.count,
             documents[NodeCore.StateFile.timers]?["presets"]?.arrayValue?.count),
            ("mixes", MixesFeature(restoring: documents[NodeCore.StateFile.mixes]).mixes.count,
             documents[NodeCore.StateFile.mixes]?["mixes"]?.arrayValue?.count),
            ("stations", StationsFeature(restoring: documents[NodeCore.StateFile.stations]).stations.count,
             documents[NodeCore.StateFile.stations]?["stations"]?.arrayValue?.count),
        ]
        for (name, loaded, given) in kept where loaded != (given ?? 0) {
            throw BackupRefusal(name, "the node's state file loader keeps \(loaded) of \(given ?? 0)")
        }
    }
}
