/// Why a command was refused. Every refusal changes nothing and is answered on `~/response`.
public struct CommandError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case invalidJSON = "invalid_json"
        case invalidField = "invalid_field"
        case unknownCommand = "unknown_command"
        case notFound = "not_found"
        case unknownSound = "unknown_sound"
        case limitExceeded = "limit_exceeded"
        case payloadTooLarge = "payload_too_large"
        case storageError = "storage_error"
        /// A command from another source (HTTP) that reached a node already stopping.
        case shuttingDown = "shutting_down"
        /// Speech is off (`speech.enabled: false`) or eSpeak NG could not speak (v1.2, Voice).
        case speechUnavailable = "speech_unavailable"
        /// The sound device cannot be opened (`~/audio` `unavailable`): speech would not be heard. The
        /// same name as the failsafe's `failed` reason and the readiness problem.
        case audioUnavailable = "audio_unavailable"
        /// A station that an alarm or timer would ring cannot be deleted (v1.3, Radio).
        case inUse = "in_use"
        /// `station/test` heard nothing; `cause` says why (v1.3, Radio).
        case streamUnavailable = "stream_unavailable"
        /// Too many of this command in a minute (`station/test`: 10; v1.4, "Streams are bounded").
        case rateLimited = "rate_limited"
    }

    public var code: Code
    public var field: String?
    public var message: String
    /// `stream_unavailable`'s cause (`dns`, `refused`, …); absent from other errors.
    public var cause: String?

    public init(_ code: Code, field: String? = nil, _ message: String, cause: String? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.cause = cause
    }

    public static func invalidField(_ field: String, _ message: String) -> CommandError {
        CommandError(.invalidField, field: field, message)
    }

    /// A payload over `CommandPayload.maxBytes` (64 KiB), before anything of it is read.
    public static func payloadTooLarge(_ bytes: Int) -> CommandError {
        CommandError(.payloadTooLarge, "payload is \(bytes) bytes; the limit is \(CommandPayload.maxBytes)")
    }

    /// A name no command table has (`CommandName(rawValue:)` nil), as a topic or as `POST /api/<name>`.
    public static func unknownCommand(_ name: String) -> CommandError {
        CommandError(.unknownCommand, "unknown command topic \"\(name.prefix(128))\"")
    }

    public var json: JSONValue {
        guard let cause else { return ["code": .string(code.rawValue), "field": .optional(field), "message": .string(message)] }
        return ["code": .string(code.rawValue), "field": .optional(field), "message": .string(message), "cause": .string(cause)]
    }
}
