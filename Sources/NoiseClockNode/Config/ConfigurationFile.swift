import NoiseClockCore

/// Parses the YAML configuration strictly: every key must be in `ConfigurationKeys`, every value
/// of the key's type; `null` (or an empty value) means "not set". Yields the file's layer of
/// `ConfigurationValues`, by dotted path.
enum ConfigurationFile {
    static func values(fromYAML text: String, path: String) throws(ConfigurationError) -> [String: ConfigurationValue] {
        let root: YAMLNode?
        do {
            root = try YAMLParser.compose(text)
        } catch {
            throw ConfigurationError(key: path, message: "invalid YAML: \(error.message)")
        }
        var values: [String: ConfigurationValue] = [:]
        guard let root, !isNull(root) else { return values }  // an empty file: all defaults
        guard case .mapping(let mapping) = root else {
            throw ConfigurationError(key: path, message: "expected a mapping of keys at the top level, got \(kindName(of: root))")
        }
        try collect(mapping, section: "", into: &values)
        return values
    }

    private static func collect(
        _ mapping: YAMLMapping, section: String, into values: inout [String: ConfigurationValue]
    ) throws(ConfigurationError) {
        var seen: Set<String> = []
        for pair in mapping.pairs {
            guard case .scalar(let scalar) = pair.key else {
                let message = "keys must be plain names, got \(kindName(of: pair.key))"
                throw ConfigurationError(key: section.isEmpty ? "(top level)" : section, message: message)
            }
            // A bare `?` or `: x` makes an empty key; the error must still name where it is.
            guard !scalar.string.isEmpty else {
                throw ConfigurationError(key: section.isEmpty ? "(top level)" : section, message: "a key is empty or null")
            }
            let path = section.isEmpty ? scalar.string : "\(section).\(scalar.string)"
            // The parser refuses equal keys; this catches `1` beside `"1"` (same text, other tag).
            guard seen.insert(scalar.string).inserted else {
                throw ConfigurationError(key: path, message: "given more than once")
            }
            if ConfigurationSchema.sections.contains(path) {
                if isNull(pair.value) { continue }
                guard case .mapping(let inner) = pair.value else {
                    let names = ConfigurationSchema.names(under: path).joined(separator: ", ")
                    throw ConfigurationError(key: path, message: "expected a mapping of keys (\(names)), got \(kindName(of: pair.value))")
                }
                try collect(inner, section: path, into: &values)
            } else if let key = ConfigurationSchema.keysByPath[path] {
                if let value = try value(of: pair.value, for: key) {
                    values[path] = value
                }
            } else {
                let known = ConfigurationSchema.names(under: section).joined(separator: ", ")
                throw ConfigurationError(key: path, message: "unknown key (known keys here: \(known))")
            }
        }
    }

    /// The value as the key's type; nil for `null`. Only plain `5` is an integer (quoted `"5"` is
    /// a string), only plain `true`/`yes`/`on` (or their opposites) a boolean.
    private static func value(of node: YAMLNode, for key: any AnyConfigurationKey) throws(ConfigurationError) -> ConfigurationValue? {
        if isNull(node) { return nil }
        if key.kind == .entries {
            guard case .sequence(let sequence) = node else {
                throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
            }
            return .entries(sequence.nodes.map(json))
        }
        if key.kind == .list {
            guard case .sequence(let sequence) = node else {
                throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
            }
            var items: [String] = []
            for item in sequence.nodes {
                guard case .scalar(let scalar) = item, !isNull(item) else {
                    throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got an item \(kindName(of: item))")
                }
                items.append(scalar.string)
            }
            return .list(items)
        }
        guard case .scalar(let scalar) = node else {
            throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
        }
        switch key.kind {
        case .string:
            return .string(scalar.string)
        case .integer:
            if scalar.tag == YAMLTag.int, let int = scalar.integer { return .integer(int) }
        case .boolean:
            if scalar.tag == YAMLTag.bool, let bool = scalar.boolean { return .boolean(bool) }
        case .number:
            if let number = number(scalar) { return .number(number) }
        case .list, .entries:
            break
        }
        throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
    }

    /// A plain integer or float scalar, finite (`.inf` and `.nan` are not a duration).
    private static func number(_ scalar: YAMLScalar) -> Double? {
        if scalar.tag == YAMLTag.int, let int = scalar.integer { return Double(int) }
        guard scalar.tag == YAMLTag.float, scalar.isPlain, let double = Double(scalar.string.filter { $0 != "_" }), double.isFinite else {
            return nil
        }
        return double
    }

    /// A list entry as JSON, scalars typed by their resolved tag (so `key: 28` is a number and
    /// `key: KEY_ENTER` a string, as in JSON).
    private static func json(_ node: YAMLNode) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch scalar.tag {
            case YAMLTag.null: return .null
            case YAMLTag.bool: return scalar.boolean.map(JSONValue.bool) ?? .string(scalar.string)
            case YAMLTag.int: return scalar.integer.map { .int(Int64($0)) } ?? .string(scalar.string)
            case YAMLTag.float: return number(scalar).map(JSONValue.double) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .mapping(let mapping):
            return .object(JSONObject(mapping.pairs.map { (($0.key.text ?? ""), json($0.value)) }))
        case .sequence(let sequence):
            return .array(sequence.nodes.map(json))
        }
    }

    private static func isNull(_ node: YAMLNode) -> Bool {
        if case .scalar(let scalar) = node { return scalar.tag == YAMLTag.null }
        return false
    }

    private static func kindName(of node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}
