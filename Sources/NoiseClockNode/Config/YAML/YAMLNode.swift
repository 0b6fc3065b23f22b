/// A composed YAML document, as `YAMLParser` yields it: aliases are replaced by the node they
/// name and every tag is resolved. Equality is YAML's node equality (content and tag, not
/// style), which is what makes two mapping keys duplicates.
enum YAMLNode: Hashable, Sendable {
    case scalar(YAMLScalar)
    case mapping(YAMLMapping)
    case sequence(YAMLSequence)

    var tag: String {
        switch self {
        case .scalar(let scalar): scalar.tag
        case .mapping(let mapping): mapping.tag
        case .sequence(let sequence): sequence.tag
        }
    }

    /// The text a duplicate-key message shows (as Yams did: a mapping holding a `=` key shows
    /// that key's value; anything else that is not a scalar has no text).
    var text: String? {
        switch self {
        case .scalar(let scalar): scalar.string
        case .mapping(let mapping): mapping.pairs.first { $0.key.tag == YAMLTag.value }.flatMap(\.value.text)
        case .sequence: nil
        }
    }
}

struct YAMLScalar: Hashable, Sendable {
    let string: String
    /// The resolved tag (`YAMLTag.str`, `.int`, ... or an explicit one like `!custom`).
    let tag: String
    /// Written without quotes or block indicators: only plain scalars may be numbers.
    let isPlain: Bool

    static func == (lhs: YAMLScalar, rhs: YAMLScalar) -> Bool {
        lhs.string == rhs.string && lhs.tag == rhs.tag
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
        hasher.combine(tag)
    }
}

struct YAMLMapping: Hashable, Sendable {
    struct Pair: Hashable, Sendable {
        let key: YAMLNode
        let value: YAMLNode
    }

    let pairs: [Pair]
    let tag: String
}

struct YAMLSequence: Hashable, Sendable {
    let nodes: [YAMLNode]
    let tag: String
}
