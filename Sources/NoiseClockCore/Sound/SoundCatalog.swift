/// The sounds the node can play, by kind. Commands name sounds by id only; an id that is not in
/// the catalog is `unknown_sound`, so nothing a client sends can name a file path.
public struct SoundCatalog: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var name: String
        public var category: String

        public init(id: String, name: String, category: String) {
            self.id = id
            self.name = name
            self.category = category
        }

        public var json: JSONValue { ["id": .string(id), "name": .string(name), "category": .string(category)] }
    }

    public var noise: [Entry]
    public var alarm: [Entry]
    /// The user's mixes (`SoundCatalog+Mixes.swift`): noise sounds too, listed after the others.
    public var mixes: [Mix] = []

    public init(noise: [Entry], alarm: [Entry]) {
        self.noise = noise
        self.alarm = alarm
    }

    public static let empty = SoundCatalog(noise: [], alarm: [])

    public func hasNoise(_ id: String) -> Bool { noise.contains { $0.id == id } || mixes.contains { $0.id == id } }
    public func hasAlarm(_ id: String) -> Bool { alarm.contains { $0.id == id } }

    /// Every noise sound a client can pick, mixes last.
    public var noiseEntries: [Entry] { noise + mixes.map { Entry(id: $0.id, name: $0.name, category: Mix.category) } }

    public var json: JSONValue {
        let mixEntries = mixes.map { mix -> JSONValue in
            ["id": .string(mix.id), "name": .string(mix.name), "category": .string(Mix.category), "layers": .array(mix.layers.map(\.json))]
        }
        return ["noise": .array(noise.map(\.json) + mixEntries), "alarm": .array(alarm.map(\.json))]
    }
}
