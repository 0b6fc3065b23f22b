/// One line of `Resources/sounds.json`: a catalog entry plus where its audio comes from
/// (`synth:<generator>` for the built-in DSP, `file` for recordings in `audio.sounds_dir`).
public struct SoundDefinition: Sendable, Equatable {
    public enum Kind: String, Sendable { case noise, alarm }

    public var kind: Kind
    public var entry: SoundCatalog.Entry
    public var source: String

    public init(kind: Kind, entry: SoundCatalog.Entry, source: String) {
        self.kind = kind
        self.entry = entry
        self.source = source
    }

    public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `{"version": 1, "noise": [{id, name, category, source}...], "alarm": [...]}`.
    public static func parseCatalogFile(_ document: JSONValue) throws(FileError) -> [SoundDefinition] {
        guard let object = document.objectValue else { throw FileError(description: "sounds.json must be an object") }
        guard object["version"]?.intValue == 1 else { throw FileError(description: "sounds.json: version must be 1") }
        var result: [SoundDefinition] = []
        for kind in [Kind.noise, .alarm] {
            guard let list = object[kind.rawValue]?.arrayValue else {
                throw FileError(description: "sounds.json: \"\(kind.rawValue)\" must be an array")
            }
            for item in list {
                guard let id = item["id"]?.stringValue, SoundID.isValid(id),
                    let name = item["name"]?.stringValue,
                    let category = item["category"]?.stringValue,
                    let source = item["source"]?.stringValue
                else {
                    throw FileError(description: "sounds.json: bad \(kind.rawValue) entry \(item.serialized.prefix(120))")
                }
                guard !result.contains(where: { $0.entry.id == id }) else {
                    throw FileError(description: "sounds.json: duplicate id \"\(id)\"")
                }
                result.append(SoundDefinition(kind: kind, entry: .init(id: id, name: name, category: category), source: source))
            }
        }
        return result
    }
}

extension SoundCatalog {
    /// The catalog clients see, from definitions in file order.
    public init(definitions: [SoundDefinition]) {
        self.init(
            noise: definitions.filter { $0.kind == .noise }.map(\.entry),
            alarm: definitions.filter { $0.kind == .alarm }.map(\.entry)
        )
    }

    /// A noise or alarm sound with that id (preview takes either).
    public func hasSound(_ id: String) -> Bool { hasNoise(id) || hasAlarm(id) }

    public func entry(_ id: String) -> Entry? { noise.first { $0.id == id } ?? alarm.first { $0.id == id } }
}
