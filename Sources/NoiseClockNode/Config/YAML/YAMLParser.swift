import CYAML

/// Composes a YAML stream's single document with libyaml. It does what `Yams.compose(yaml:)` did
/// for the loader, with the same messages: aliases resolved, duplicate keys refused, a second
/// document refused. Yams needed Foundation; this needs only libyaml.
enum YAMLParser {
    /// The document, or nil when the stream holds none (an empty file, only comments).
    static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        try YAMLComposer(text).singleRoot()
    }
}

/// One libyaml parser over a copy of the input (libyaml reads the bytes in place, so they must
/// outlive the parser), and the anchors seen so far.
private final class YAMLComposer {
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let initialized: Bool
    private var anchors: [String: YAMLNode] = [:]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        // Never empty: libyaml asserts that it is given a buffer.
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        initialized = yaml_parser_initialize(parser) == 1
        if initialized {
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deallocate()
        input.deallocate()
    }

    func singleRoot() throws(YAMLError) -> YAMLNode? {
        guard initialized else { throw YAMLError(message: "Memory error") }
        _ = try next()  // the stream's start
        guard try next().type != YAML_STREAM_END_EVENT else { return nil }
        let root = try load(try next(), depth: 0)
        _ = try next()  // the document's end
        let after = try next()
        guard after.type == YAML_STREAM_END_EVENT else {
            throw Self.error("but found another document", at: after)
        }
        return root
    }

    /// Yams' libyaml refused nesting deeper than 1000; so does this, which also bounds the
    /// recursion (a 1 MiB file of `[` would otherwise overflow the stack).
    static let maximumDepth = 1000

    private func load(_ event: YAMLEvent, depth: Int) throws(YAMLError) -> YAMLNode {
        let node: YAMLNode
        let isCollection = event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT
        if isCollection && depth >= Self.maximumDepth {
            throw Self.error("Maximum nesting level reached, set with yaml_set_max_nest_level())", at: event)
        }
        switch event.type {
        case YAML_ALIAS_EVENT:
            // An anchor is known once its node is complete, so a node cannot contain itself.
            guard let anchor = event.anchor, let target = anchors[anchor] else { throw Self.error("found undefined alias", at: event) }
            return target
        case YAML_SCALAR_EVENT:
            node = .scalar(YAMLScalar(string: event.value, tag: event.scalarTag, isPlain: event.isPlain))
        case YAML_SEQUENCE_START_EVENT:
            var nodes: [YAMLNode] = []
            var item = try next()
            while item.type != YAML_SEQUENCE_END_EVENT {
                nodes.append(try load(item, depth: depth + 1))
                item = try next()
            }
            node = .sequence(YAMLSequence(nodes: nodes, tag: event.collectionTag(default: YAMLTag.seq)))
        case YAML_MAPPING_START_EVENT:
            var pairs: [YAMLMapping.Pair] = []
            var item = try next()
            while item.type != YAML_MAPPING_END_EVENT {
                let key = try load(item, depth: depth + 1)
                let value = try load(try next(), depth: depth + 1)
                pairs.append(YAMLMapping.Pair(key: key, value: value))
                item = try next()
            }
            try Self.refuseDuplicates(pairs)
            node = .mapping(YAMLMapping(pairs: pairs, tag: event.collectionTag(default: YAMLTag.map)))
        default:
            throw Self.error("unexpected event \(event.type.rawValue)", at: event)
        }
        if let anchor = event.anchor { anchors[anchor] = node }
        return node
    }

    /// Keys equal as YAML nodes (same text and tag: `port` twice, but not `1` and `"1"`).
    private static func refuseDuplicates(_ pairs: [YAMLMapping.Pair]) throws(YAMLError) {
        var counts: [YAMLNode: Int] = [:]
        for pair in pairs { counts[pair.key, default: 0] += 1 }
        let duplicates = counts.filter { $0.value > 1 }.keys.map { $0.text ?? "<uncovertable>" }.sorted()
        guard duplicates.isEmpty else {
            let list = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            throw YAMLError(message: "Parser: expected all keys to be unique but found the following duplicated key(s): \(list).")
        }
    }

    private func next() throws(YAMLError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
        defer { yaml_event_delete(&event) }
        return YAMLEvent(event)
    }

    private func parserError() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(message: "Memory error")
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            return YAMLError(message: "\(problem) at line \(state.problem_mark.line + 1), column \(state.problem_mark.column + 1)")
        default:
            return YAMLError(message: problem)
        }
    }

    private static func error(_ problem: String, at event: YAMLEvent) -> YAMLError {
        YAMLError(message: "\(problem) at line \(event.line), column \(event.column)")
    }
}
