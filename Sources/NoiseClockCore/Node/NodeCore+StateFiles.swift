/// The state files across releases (docs/reliability.md, "State files across releases"): the
/// format each is read in, the keys this node knows in it, and what a file of a newer format does.
extension NodeCore {
    /// The `version` of each state file this node writes; it reads that one and every older one.
    public static let documentVersions: [String: Int] = [
        StateFile.alarms: AlarmsFeature.documentVersion, StateFile.style: StyleFeature.documentVersion,
        StateFile.noise: NoiseState.documentVersion, StateFile.routines: RoutinesFeature.documentVersion,
        StateFile.timers: TimersFeature.documentVersion, StateFile.mixes: MixesFeature.documentVersion,
        StateFile.stations: StationsFeature.documentVersion,
    ]

    /// A file's `version` when it is newer than this node reads (nil: it is not). The node then
    /// refuses to start rather than start without what the file holds.
    public static func newerVersion(file: String, document: JSONValue) -> Int? {
        guard let version = document["version"]?.intValue, let readable = documentVersions[file], version > readable else { return nil }
        return version
    }

    /// The keys this node knows in each state file; everything else is carried through a rewrite.
    public static let documentShapes: [String: DocumentShape] = {
        let alarm = DocumentShape(Alarm.knownKeys.union(["pending", "pre_alarm_sent"]))
        let ring = DocumentShape(
            ["phase", "scheduled", "since", "snooze_until", "snooze_count", "test", "audibility", "source"],
            lists: ["others": alarm], objects: ["alarm": alarm])
        let styleFields = Set(ClockStyle.defaults.fieldsJSON.keys)
        let routine = DocumentShape(
            Routine.knownKeys.union(["pending"]),
            objects: ["light": DocumentShape(["brightness", "kelvin", "color"]), "face": DocumentShape(styleFields)])
        return [
            StateFile.alarms: DocumentShape(["version", "id_counter", "paused_until"], lists: ["alarms": alarm], objects: ["ring": ring]),
            StateFile.style: DocumentShape(["version"], objects: ["style": DocumentShape(styleFields)]),
            StateFile.noise: DocumentShape(Set(NoiseState.defaults.persistent.objectValue?.keys ?? [])),
            StateFile.routines: DocumentShape(
                ["version", "id_counter"], lists: ["routines": routine],
                objects: ["active": DocumentShape(["started_at", "ends_at", "fade_out_from"], objects: ["routine": routine])]),
            StateFile.timers: DocumentShape(
                ["version", "id_counter"],
                lists: ["timers": DocumentShape(["id", "label", "seconds", "sound", "started_at", "ends_at", "vibrate"]),
                        "presets": DocumentShape(["id", "label", "minutes", "sound"])]),
            StateFile.mixes: DocumentShape(
                ["version"], lists: ["mixes": DocumentShape(["id", "name"], lists: ["layers": DocumentShape(["sound", "volume"])])]),
            StateFile.stations: DocumentShape(["version"], lists: ["stations": DocumentShape(Station.fields)]),
        ]
    }()

    /// What the features restore from: each document without the keys this node does not know.
    static func knownParts(_ documents: [String: JSONValue]) -> [String: JSONValue] {
        var known = documents
        for (file, document) in documents {
            if let shape = documentShapes[file] { known[file] = shape.split(document).known }
        }
        return known
    }

    /// What each document holds that this node does not know, to be written back with it.
    static func unknownFields(_ documents: [String: JSONValue]) -> [String: UnknownFields] {
        var unknown: [String: UnknownFields] = [:]
        for (file, document) in documents {
            if let shape = documentShapes[file], let fields = shape.split(document).unknown { unknown[file] = fields }
        }
        return unknown
    }
}
