/// Which keys of a stored JSON document this node knows, level by level: what lets a state file
/// written by a newer release (a field added, the `version` unchanged) be read here and
/// rewritten with that field still in it (docs/reliability.md, "State files across releases").
public struct DocumentShape: Sendable {
    /// Keys known at this level; every other key is kept aside and written back.
    public var known: Set<String>
    /// Known keys holding lists of objects, each entry matched by its `"id"` (by position when it has none).
    public var lists: [String: DocumentShape]
    /// Known keys holding one object.
    public var objects: [String: DocumentShape]

    public init(_ known: Set<String>, lists: [String: DocumentShape] = [:], objects: [String: DocumentShape] = [:]) {
        self.known = known.union(lists.keys).union(objects.keys)
        self.lists = lists
        self.objects = objects
    }

    /// The document without the keys this node does not know, and those keys (nil: there were none).
    public func split(_ document: JSONValue) -> (known: JSONValue, unknown: UnknownFields?) {
        guard var object = document.objectValue else { return (document, nil) }
        var extras = UnknownFields()
        for pair in object.pairs where !known.contains(pair.key) {
            extras.pairs.append((pair.key, pair.value))
            object[pair.key] = nil
        }
        for (key, shape) in objects {
            guard let value = object[key], value.objectValue != nil else { continue }
            let (inner, unknown) = shape.split(value)
            object[key] = inner
            if let unknown { extras.objects[key] = unknown }
        }
        for (key, shape) in lists {
            guard let items = object[key]?.arrayValue else { continue }
            var kept: [JSONValue] = []
            for (index, item) in items.enumerated() {
                let (inner, unknown) = shape.split(item)
                kept.append(inner)
                if let unknown { extras.entries[key, default: [:]][UnknownFields.entryKey(item, index: index)] = unknown }
            }
            object[key] = .array(kept)
        }
        return (.object(object), extras.isEmpty ? nil : extras)
    }
}

/// The fields of a document its node did not know, kept to be written back (`DocumentShape.split`).
public struct UnknownFields: Sendable, Equatable {
    var pairs: [(String, JSONValue)] = []
    /// Per list key, per entry (`id`, or `#position`).
    var entries: [String: [String: UnknownFields]] = [:]
    var objects: [String: UnknownFields] = [:]

    var isEmpty: Bool { pairs.isEmpty && entries.isEmpty && objects.isEmpty }

    static func entryKey(_ item: JSONValue, index: Int) -> String {
        item["id"]?.stringValue ?? "#\(index)"
    }

    /// `document` (as this node encodes it) with the kept fields added back where their owners
    /// still are: an entry that was deleted takes its fields with it; a key the node now writes itself wins.
    public func restore(into document: JSONValue) -> JSONValue {
        guard var object = document.objectValue else { return document }
        for (key, value) in pairs where object[key] == nil { object[key] = value }
        for (key, inner) in objects {
            if let value = object[key], value.objectValue != nil { object[key] = inner.restore(into: value) }
        }
        for (key, byEntry) in entries {
            guard let items = object[key]?.arrayValue else { continue }
            object[key] = .array(items.enumerated().map { index, item in
                byEntry[Self.entryKey(item, index: index)].map { $0.restore(into: item) } ?? item
            })
        }
        return .object(object)
    }

    public static func == (lhs: UnknownFields, rhs: UnknownFields) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            && lhs.entries == rhs.entries && lhs.objects == rhs.objects
    }
}
