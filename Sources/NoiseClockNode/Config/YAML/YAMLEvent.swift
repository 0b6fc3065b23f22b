import CYAML

/// What the composer needs of one libyaml event, copied out so the C event can be freed at once.
struct YAMLEvent {
    let type: yaml_event_type_t
    /// 1-based, as editors count.
    let line: Int
    let column: Int
    var anchor: String?
    var tag: String?
    var value = ""
    var isPlain = false
    /// libyaml's flag for a quoted or block scalar without a tag: a string.
    var quotedImplicit = false

    init(_ event: yaml_event_t) {
        type = event.type
        line = Int(event.start_mark.line) + 1
        column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_ALIAS_EVENT:
            anchor = Self.text(event.data.alias.anchor)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            anchor = Self.text(scalar.anchor)
            tag = Self.text(scalar.tag)
            // Counted, not NUL-terminated: a scalar may hold "\0".
            value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE || scalar.style == YAML_ANY_SCALAR_STYLE
            quotedImplicit = scalar.quoted_implicit == 1
        case YAML_SEQUENCE_START_EVENT:
            anchor = Self.text(event.data.sequence_start.anchor)
            tag = Self.text(event.data.sequence_start.tag)
        case YAML_MAPPING_START_EVENT:
            anchor = Self.text(event.data.mapping_start.anchor)
            tag = Self.text(event.data.mapping_start.tag)
        default:
            break
        }
    }

    /// The scalar's tag: a string when quoted, typed by its text when plain and untagged,
    /// `!` meaning a string, else the tag as written (`!!int` arrives as `tag:yaml.org,2002:int`).
    var scalarTag: String {
        if quotedImplicit { return YAMLTag.str }
        switch tag {
        case nil, "": return YAMLTag.resolve(plain: value)
        case YAMLTag.nonSpecific: return YAMLTag.str
        case let explicit?: return explicit
        }
    }

    /// A mapping's or sequence's tag: `fallback` unless one is written.
    func collectionTag(default fallback: String) -> String {
        switch tag {
        case nil, "", YAMLTag.nonSpecific: fallback
        case let explicit?: explicit
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
