/// A command's payload, classified once: empty, a JSON document, or a plain word or number.
public enum CommandPayload: Sendable, Equatable {
    case empty
    case json(JSONValue)
    /// Trimmed text that is not JSON (`ON`, `brown`, `7`, an id). Matching is case-insensitive.
    case plain(String)

    /// The largest payload the node reads; anything bigger is `payload_too_large`.
    public static let maxBytes = 64 * 1024

    /// Payloads that start like a JSON object or array must be valid JSON; a bare number or
    /// word is plain text, so `40` and `ON` work for plain topics. A topic that takes free text
    /// (`say`: "plain text, or {...}") reads only an object as JSON, so `"Hi" she said` is text.
    public static func classify(_ bytes: [UInt8], freeText: Bool = false) throws(CommandError) -> CommandPayload {
        guard bytes.count <= maxBytes else { throw .payloadTooLarge(bytes.count) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.invalidJSON, "payload is not valid UTF-8")
        }
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { return .empty }
        let jsonStarts: [UInt8] = freeText ? [UInt8(ascii: "{")] : [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")]
        if let first = trimmed.utf8.first, jsonStarts.contains(first) {
            do {
                return .json(try JSONParser().parse(Array(trimmed.utf8)))
            } catch {
                throw CommandError(.invalidJSON, "invalid JSON: \(error.description)")
            }
        }
        return .plain(trimmed)
    }

    /// The request id a JSON object carries, echoed in the response.
    public var requestID: JSONValue? {
        guard case .json(let value) = self, let id = value["request_id"] else { return nil }
        switch id {
        case .string, .int, .double: return id
        default: return nil
        }
    }

    /// The request id of a body as it came (nil: none, or a body that is not a JSON object of 64 KiB at most).
    public static func requestID(in bytes: [UInt8]) -> JSONValue? {
        (try? classify(bytes))?.requestID
    }

    /// An object payload, or the error a JSON-only command answers with.
    public func object(for command: some FeatureCommand) throws(CommandError) -> JSONObject {
        switch self {
        case .json(.object(let object)): return object
        case .json(let other): throw CommandError(.invalidJSON, "\(command.rawValue) takes a JSON object, got \(other.typeName)")
        case .empty: throw CommandError(.invalidJSON, "\(command.rawValue) takes a JSON object, got an empty payload")
        case .plain: throw CommandError(.invalidJSON, "\(command.rawValue) takes a JSON object, got plain text")
        }
    }

    /// Nothing, or an object holding only `request_id` (`speak/time`, `buttons/learn`,
    /// `safe_mode/exit`); anything else is refused.
    public func requireEmpty(for command: some FeatureCommand) throws(CommandError) {
        switch self {
        case .empty: return
        case .json(.object(let object)) where object.keys.allSatisfy({ $0 == "request_id" }): return
        default: throw CommandError(.invalidField, "\(command.rawValue) takes an empty payload")
        }
    }

    /// The list a declarative `…/set` command takes: the array itself, or `{"<key>": [...]}`, the
    /// form that can carry a `request_id`. nil for anything else.
    public func list(key: String) -> [JSONValue]? {
        switch self {
        case .json(.array(let items)): return items
        case .json(.object(let object)): return object[key]?.arrayValue
        default: return nil
        }
    }

    /// An id given as `{"id": ...}` or as the plain text itself.
    public func id(for command: some FeatureCommand) throws(CommandError) -> String {
        switch self {
        case .plain(let text): return text
        case .json(.string(let text)): return text
        case .json(.object(let object)):
            guard let id = object["id"] else { throw CommandError.invalidField("id", "id is required") }
            guard case .string(let text) = id, !text.isEmpty else { throw CommandError.invalidField("id", "id must be a non-empty string") }
            return text
        case .json(let other): throw CommandError(.invalidJSON, "\(command.rawValue) takes an id or {\"id\": ...}, got \(other.typeName)")
        case .empty: throw CommandError.invalidField("id", "id is required")
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks (no Foundation in core).
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
