import Configuration
import Yams

/// Parses the YAML configuration strictly: every key must be in `ConfigurationSchema`, every value
/// of the key's type; `null` (or an empty value) means "not set". Yields the values for an
/// `InMemoryProvider` (the file layer of the `ConfigReader`).
enum ConfigurationFile {
    static func values(fromYAML text: String, path: String) throws(ConfigurationError) -> [AbsoluteConfigKey: ConfigValue] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(key: path, message: "invalid YAML: \(describe(error))")
        }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        guard let root, !isNull(root) else { return values }  // an empty file: all defaults
        guard case .mapping(let mapping) = root else {
            throw ConfigurationError(key: path, message: "expected a mapping of keys at the top level, got \(kindName(of: root))")
        }
        try collect(mapping, section: "", into: &values)
        return values
    }

    private static func collect(
        _ mapping: Node.Mapping, section: String, into values: inout [AbsoluteConfigKey: ConfigValue]
    ) throws(ConfigurationError) {
        var seen: Set<String> = []
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw ConfigurationError(key: section.isEmpty ? "(top level)" : section, message: "keys must be plain names, got \(kindName(of: keyNode))")
            }
            // A bare `?` or `: x` makes an empty key; the error must still name where it is.
            guard !scalar.string.isEmpty else {
                throw ConfigurationError(key: section.isEmpty ? "(top level)" : section, message: "a key is empty or null")
            }
            let path = section.isEmpty ? scalar.string : "\(section).\(scalar.string)"
            guard seen.insert(scalar.string).inserted else {
                throw ConfigurationError(key: path, message: "given more than once")
            }
            if ConfigurationSchema.sections.contains(path) {
                if isNull(valueNode) { continue }
                guard case .mapping(let inner) = valueNode else {
                    throw ConfigurationError(key: path, message: "expected a mapping of keys (\(ConfigurationSchema.names(under: path).joined(separator: ", "))), got \(kindName(of: valueNode))")
                }
                try collect(inner, section: path, into: &values)
            } else if let key = ConfigurationSchema.keysByPath[path] {
                if let content = try content(of: valueNode, for: key) {
                    values[AbsoluteConfigKey(ConfigKey(path))] = ConfigValue(content, isSecret: false)
                }
            } else {
                let known = ConfigurationSchema.names(under: section).joined(separator: ", ")
                throw ConfigurationError(key: path, message: "unknown key (known keys here: \(known))")
            }
        }
    }

    /// The value as the key's type; nil for `null`.
    private static func content(of node: Node, for key: ConfigurationKey) throws(ConfigurationError) -> ConfigContent? {
        if isNull(node) { return nil }
        guard case .scalar(let scalar) = node else {
            throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
        }
        switch key.kind {
        case .string:
            return .string(scalar.string)
        case .integer:
            if has(node, .int), let int = Int.construct(from: scalar) { return .int(int) }
        case .boolean:
            if has(node, .bool), let bool = Bool.construct(from: scalar) { return .bool(bool) }
        }
        throw ConfigurationError(key: key.path, message: "expected \(key.kind.expected), got \(kindName(of: node))")
    }

    private static func isNull(_ node: Node) -> Bool {
        if case .scalar = node, has(node, .null) { return true }
        return false
    }

    /// Whether YAML resolved the node to that tag (plain `5` is an int, quoted `"5"` a string).
    private static func has(_ node: Node, _ tag: Tag.Name) -> Bool {
        node.tag.rawValue == tag.rawValue
    }

    private static func kindName(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Yams' own description spans several lines and repeats the file; keep one line.
    private static func describe(_ error: any Error) -> String {
        guard let yamlError = error as? YamlError else { return "\(error)" }
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return "\(problem) at line \(mark.line), column \(mark.column)"
        case .reader(let problem, _, _, _):
            return problem
        default:
            return "\(yamlError)".split(separator: "\n").first.map(String.init) ?? "unreadable"
        }
    }
}
