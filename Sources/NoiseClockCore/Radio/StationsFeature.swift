/// Internet radio stations as a node feature: `station/add|update|delete`, the retained
/// `~/stations` and `stations.json` in `state_dir`. A station is a sound (`radio:<id>`): the core
/// puts the stations into the catalog every feature sees (`NodeCore.soundCatalog`), and refuses
/// deleting one that an alarm or timer would ring (`NodeCore+Stations.swift`).
public struct StationsFeature: Sendable, Equatable {
    public internal(set) var stations: [Station] = []
    /// `stream.allow_local_addresses`: a loopback or link-local host may be added (tests, a
    /// station served on this machine). Off by default (mqtt-api v1.4).
    public var allowsLocalAddresses = false
    /// Safe mode (v1.4): stations are off, and `station/test` is refused.
    public var safeMode = false

    public init() {}

    /// Entries that are not a valid station (or one too many, or a repeated id) are dropped.
    public init(restoring document: JSONValue?) {
        guard let object = document?.objectValue, object["version"]?.intValue == Self.documentVersion else { return }
        for item in object["stations"]?.arrayValue ?? [] {
            guard let id = item["id"]?.stringValue, Station.isValidID(id), let name = item["name"]?.stringValue,
                  Station.nameLength.contains(name.unicodeScalars.count), let url = item["url"]?.stringValue, Station.isValidURL(url),
                  stations.count < Station.limit, !stations.contains(where: { $0.id == id })
            else { continue }
            // v1.4's `directory_id`: absent in older files; one that is not an id is dropped, not the station.
            let directoryID = item["directory_id"]?.stringValue.flatMap { DirectoryStation.isValidID($0) ? $0 : nil }
            stations.append(Station(id: id, name: name, url: url, directoryID: directoryID))
        }
    }

    public func station(_ id: String) -> Station? { stations.first { $0.id == id } }

    // MARK: Commands

    public typealias Command = StationCommand

    public mutating func apply(
        _ command: StationCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .add:
            let object = try payload.object(for: command)
            try ProgrammeFields.rejectUnknown(object, known: Station.fields, ignored: ["request_id"])
            guard let nameValue = object["name"] else { throw .invalidField("name", "name is required") }
            let name = try Station.name(nameValue)
            guard let urlValue = object["url"] else { throw .invalidField("url", "url is required") }
            let url = try checkedHost(Station.url(urlValue))
            let id: String
            if let value = object["id"] {
                id = try Station.id(value)
            } else {
                guard let derived = Station.derivedID(fromName: name) else {
                    throw .invalidField("id", "no id can be made from the name; give an id ([a-z0-9_-], 1 to 32)")
                }
                id = derived
            }
            guard station(id) == nil else { throw .invalidField("id", "a station with id \"\(id)\" exists; use station/update") }
            guard stations.count < Station.limit else { throw CommandError(.limitExceeded, "at most \(Station.limit) stations") }
            var directoryID: String?
            if let value = object["directory_id"] { directoryID = try Station.directoryID(value) }
            let added = Station(id: id, name: name, url: url, directoryID: directoryID)
            stations.append(added)
            if let directoryID { output.effects.append(.tellDirectory(id: directoryID)) }
            return added.json
        case .update:
            let object = try payload.object(for: command)
            try ProgrammeFields.rejectUnknown(object, known: Station.fields, ignored: ["request_id"])
            guard let idValue = object["id"] else { throw .invalidField("id", "id is required") }
            let id = try Station.id(idValue)
            guard let index = stations.firstIndex(where: { $0.id == id }) else { throw Self.notFound(id) }
            var changed = stations[index]
            if let value = object["name"] { changed.name = try Station.name(value) }
            if let value = object["url"] { changed.url = try checkedHost(Station.url(value)) }
            if let value = object["directory_id"] { changed.directoryID = try Station.directoryID(value) }
            stations[index] = changed
            return changed.json
        case .delete:
            let id = try payload.id(for: command).lowercased()
            guard let index = stations.firstIndex(where: { $0.id == id }) else { throw Self.notFound(id) }
            return stations.remove(at: index).json
        case .test:
            return try test(payload, output: &output)
        }
    }

    /// A loopback or link-local host is refused unless `allowsLocalAddresses` (v1.4): the node is
    /// no way into the machine's own or its link's services.
    private func checkedHost(_ url: String) throws(CommandError) -> String {
        guard !allowsLocalAddresses, StationHost.isLocal(url) else { return url }
        throw .invalidField("url", "url: a loopback or link-local address (\(StationHost.host(of: url).prefix(64))) is refused; "
            + "set stream.allow_local_addresses to allow it")
    }

    static func notFound(_ id: String) -> CommandError {
        CommandError(.notFound, field: "id", "no station with id \"\(id.prefix(64))\"")
    }

    // MARK: Time (nothing is timed)

    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {}

    public func nextDeadline(context: FeatureContext) -> Instant? { nil }

    // MARK: What it publishes and keeps

    /// `~/stations`: `[{"id", "name", "url", "directory_id"?}]`, and `~/sounds`, which lists them under `radio`
    /// (`context.catalog` holds them): the mixes feature renders the same topic when the mixes
    /// change, and equal bytes are published once.
    public func retained(context: FeatureContext) -> [Publication] {
        [
            Publication(topic: "stations", body: .json(.array(stations.map(\.json))), retain: true, qos: 1),
            Publication(topic: "sounds", body: .json(context.catalog.json), retain: true, qos: 1),
        ]
    }

    /// The format of `stations.json` this node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    /// `stations.json`: `{"version": 1, "stations": [{"id", "name", "url", "directory_id"?}, …]}` (an older
    /// file without `directory_id` reads as stations without one).
    public var persistent: JSONValue? {
        .object(JSONObject([("version", .int(Int64(Self.documentVersion))), ("stations", .array(stations.map(\.json)))]))
    }
}
