import NoiseClockCore

/// A typed value: what the file gives (typed by the schema) and what an environment variable is read as.
enum ConfigurationValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case number(Double)
    case list([String])
    /// A list of mappings (`buttons:`), as JSON: the file's YAML converted, or an environment variable's JSON array.
    case entries([JSONValue])
}

/// The YAML type of a key's value.
enum ConfigurationKind: Sendable {
    /// `list`: a YAML list of strings; its variable is comma-separated. `entries`: a list of
    /// mappings, each checked by the code that reads it; its variable is a JSON array.
    case string, integer, boolean, number, list, entries

    var expected: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "true or false"
        case .number: "a number"
        case .list: "a list of strings"
        case .entries: "a list"
        }
    }
}

/// The shape of the file, derived from `ConfigurationKeys`: its keys by path and the sections
/// (mappings of further keys) their paths imply.
enum ConfigurationSchema {
    static let keys: [any AnyConfigurationKey] = ConfigurationKeys.all

    static let keysByPath: [String: any AnyConfigurationKey] = Dictionary(uniqueKeysWithValues: keys.map { ($0.path, $0) })

    /// Every dotted prefix of a key's path: `mqtt`, `mqtt.tls`, ...
    static let sections: Set<String> = Set(keys.flatMap { key in
        let levels = key.path.split(separator: ".")
        return (1..<max(1, levels.count)).map { levels.prefix($0).joined(separator: ".") }
    })

    /// The names allowed directly under `section` ("" for the top level), for "unknown key" messages.
    static func names(under section: String) -> [String] {
        let prefix = section.isEmpty ? "" : section + "."
        let children = (keys.map(\.path) + sections).compactMap { path -> String? in
            guard path.hasPrefix(prefix) else { return nil }
            let rest = path.dropFirst(prefix.count)
            return rest.contains(".") ? nil : String(rest)
        }
        return Array(Set(children)).sorted()
    }
}
