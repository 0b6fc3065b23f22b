/// A layered soundscape: 2–4 noise sounds played together, each at a volume relative to the
/// noise volume. Used by id wherever a noise sound is.
public struct Mix: Hashable, Sendable {
    public struct Layer: Hashable, Sendable {
        public var sound: String
        public var volume: Int

        public init(sound: String, volume: Int) {
            self.sound = sound
            self.volume = volume
        }

        public var json: JSONValue { .object(JSONObject([("sound", .string(sound)), ("volume", .int(Int64(volume)))])) }
    }

    public var id: String
    public var name: String
    public var layers: [Layer]

    public init(id: String, name: String, layers: [Layer]) {
        self.id = id
        self.name = name
        self.layers = layers
    }

    public static let limit = 20
    public static let layerCount = 2...4
    public static let maxNameLength = 64
    public static let category = "mix"

    public var json: JSONValue {
        .object(JSONObject([("id", .string(id)), ("name", .string(name)), ("layers", .array(layers.map(\.json)))]))
    }

    /// `{"id", "name", "layers": [{"sound", "volume"}, …]}`. Ids follow sound ids (lower-case
    /// `[a-z0-9_-]`) so a mix can be named wherever a sound is; layers are plain noise sounds
    /// of `catalog` (the built-in one, without mixes).
    public static func parse(_ object: JSONObject, catalog: SoundCatalog) throws(CommandError) -> Mix {
        try ProgrammeFields.rejectUnknown(object, known: ["id", "name", "layers"], ignored: ["request_id", "category"])
        guard let idValue = object["id"] else { throw .invalidField("id", "id is required") }
        guard let id = idValue.stringValue?.lowercased(), Alarm.isValidID(id), SoundID.isValid(id) else {
            throw .invalidField("id", "id must be 1–64 lower-case letters, digits, - or _")
        }
        guard catalog.entry(id) == nil else { throw .invalidField("id", "\(id) is a built-in sound id; choose another") }
        let name = try object["name"].map { value throws(CommandError) in try ProgrammeFields.text(value, "name", limit: maxNameLength) } ?? id
        guard let items = object["layers"]?.arrayValue else { throw .invalidField("layers", "layers must be a list of {\"sound\", \"volume\"}") }
        guard layerCount.contains(items.count) else { throw .invalidField("layers", "a mix has 2 to 4 layers, got \(items.count)") }
        var layers: [Layer] = []
        for (index, item) in items.enumerated() {
            guard let layer = item.objectValue else { throw .invalidField("layers", "layer \(index + 1) must be an object") }
            try ProgrammeFields.rejectUnknown(layer, known: ["sound", "volume"], ignored: [])
            guard let sound = layer["sound"]?.stringValue?.lowercased() else {
                throw .invalidField("layers", "layer \(index + 1): sound is required")
            }
            guard catalog.hasNoise(sound) else {
                let message = "layer \(index + 1): no noise sound \"\(sound.prefix(64))\" (a mix's layers are noise sounds, not mixes)"
                throw CommandError(.unknownSound, field: "layers", message)
            }
            let volume = try layer["volume"].map { value throws(CommandError) in
                try FieldCheck.integer(value, "volume", in: FieldCheck.percent)
            } ?? 100
            layers.append(Layer(sound: sound, volume: volume))
        }
        return Mix(id: id, name: name, layers: layers)
    }
}
