/// The sounds the node can play, by kind. Commands name sounds by id only; an id that is not in
/// the catalog is `unknown_sound`, so nothing a client sends can name a file path.
public struct SoundCatalog: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var name: String
        public var category: String
        /// A custom recording's file: its length and format, for the device page.
        public var file: FileDetails?

        /// What a custom file's header says: published as `seconds` and `format`.
        public struct FileDetails: Sendable, Equatable {
            public var seconds: Double
            public var format: String

            public init(seconds: Double, format: String) {
                self.seconds = seconds
                self.format = format
            }
        }

        public init(id: String, name: String, category: String, file: FileDetails? = nil) {
            self.id = id
            self.name = name
            self.category = category
            self.file = file
        }

        public var json: JSONValue {
            guard let file else { return ["id": .string(id), "name": .string(name), "category": .string(category)] }
            // Whole milliseconds: the header's length is exact to the frame, nobody needs more.
            return [
                "id": .string(id), "name": .string(name), "category": .string(category),
                "seconds": .double((file.seconds * 1000).rounded() / 1000), "format": .string(file.format),
            ]
        }
    }

    public var noise: [Entry]
    public var alarm: [Entry]
    /// The user's mixes (`SoundCatalog+Mixes.swift`): noise sounds too, listed after the others.
    public var mixes: [Mix] = []
    /// The user's radio stations (`SoundCatalog+Stations.swift`): sounds `radio:<id>`, noise and alarm alike.
    public var stations: [Station] = []

    public init(noise: [Entry], alarm: [Entry]) {
        self.noise = noise
        self.alarm = alarm
    }

    public static let empty = SoundCatalog(noise: [], alarm: [])

    /// This catalog with the user's `items` (mixes, stations) in `list`; none given keeps the list as it is.
    func with<Item>(_ list: WritableKeyPath<SoundCatalog, [Item]>, _ items: [Item]) -> SoundCatalog {
        guard !items.isEmpty else { return self }
        var catalog = self
        catalog[keyPath: list] = items
        return catalog
    }

    public func hasNoise(_ id: String) -> Bool { noise.contains { $0.id == id } || mixes.contains { $0.id == id } || hasStation(id) }
    public func hasAlarm(_ id: String) -> Bool { alarm.contains { $0.id == id } || hasStation(id) }

    /// Every noise sound a client can pick, mixes then stations last.
    public var noiseEntries: [Entry] { noise + mixes.map { Entry(id: $0.id, name: $0.name, category: Mix.category) } + radioEntries }

    public var json: JSONValue {
        let mixEntries = mixes.map { mix -> JSONValue in
            ["id": .string(mix.id), "name": .string(mix.name), "category": .string(Mix.category), "layers": .array(mix.layers.map(\.json))]
        }
        // v1.3: `radio` only once there is a station, so a node without any publishes what it did.
        guard !stations.isEmpty else { return ["noise": .array(noise.map(\.json) + mixEntries), "alarm": .array(alarm.map(\.json))] }
        return [
            "noise": .array(noise.map(\.json) + mixEntries), "alarm": .array(alarm.map(\.json)),
            "radio": .array(radioEntries.map(\.json)),
        ]
    }
}
