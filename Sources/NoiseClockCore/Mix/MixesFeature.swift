/// Mixes as a node feature: `mix/set`, `mix/delete` and `mixes.json`. It also publishes
/// `~/sounds`, the catalog with the mixes in it, because that is what changes when mixes do.
public struct MixesFeature: Sendable, Equatable {
    public internal(set) var mixes: [Mix] = []

    public init() {}

    /// Layers are taken as stored (the catalog is not known yet); a layer whose sound has gone
    /// away is simply silent.
    public init(restoring document: JSONValue?) {
        guard let object = document?.objectValue, object["version"]?.intValue == Self.documentVersion else { return }
        for item in object["mixes"]?.arrayValue ?? [] {
            guard let id = item["id"]?.stringValue, SoundID.isValid(id), let name = item["name"]?.stringValue,
                  let list = item["layers"]?.arrayValue, Mix.layerCount.contains(list.count),
                  mixes.count < Mix.limit, !mixes.contains(where: { $0.id == id })
            else { continue }
            let layers = list.compactMap { layer -> Mix.Layer? in
                guard let sound = layer["sound"]?.stringValue, SoundID.isValid(sound), Station.stationID(ofSound: sound) == nil,
                      let volume = layer["volume"]?.intValue, FieldCheck.percent.contains(volume) else { return nil }
                return Mix.Layer(sound: sound, volume: volume)
            }
            if layers.count == list.count { mixes.append(Mix(id: id, name: name, layers: layers)) }
        }
    }

    // MARK: Commands

    public typealias Command = MixCommand

    public mutating func apply(
        _ command: MixCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .set:
            // Layers are plain sounds: check against the catalog without the mixes.
            var plain = context.catalog
            plain.mixes = []
            plain.stations = []
            let mix = try Mix.parse(payload.object(for: command), catalog: plain)
            if let index = mixes.firstIndex(where: { $0.id == mix.id }) {
                mixes[index] = mix
            } else {
                guard mixes.count < Mix.limit else { throw CommandError(.limitExceeded, "at most \(Mix.limit) mixes") }
                mixes.append(mix)
            }
            return mix.json
        case .delete:
            let id = try payload.id(for: command).lowercased()
            guard let index = mixes.firstIndex(where: { $0.id == id }) else { throw CommandError(.notFound, "no mix with id \"\(id.prefix(64))\"") }
            return mixes.remove(at: index).json
        }
    }

    // MARK: Time (nothing is timed)

    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {}

    public func nextDeadline(context: FeatureContext) -> Instant? { nil }

    // MARK: What it publishes and keeps

    /// `context.catalog` already holds the mixes (`NodeCore.context`).
    public func retained(context: FeatureContext) -> [Publication] {
        [Publication(topic: "sounds", body: .json(context.catalog.json), retain: true, qos: 1)]
    }

    /// The format of `mixes.json` this node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    /// `mixes.json`: `{"version": 1, "mixes": [...]}`.
    public var persistent: JSONValue? { .object(JSONObject([("version", .int(Int64(Self.documentVersion))), ("mixes", .array(mixes.map(\.json)))])) }
}
