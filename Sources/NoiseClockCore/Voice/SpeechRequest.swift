/// One utterance the machine asks the speech adapter for (`NodeEffect.speak`); its outcome
/// comes back as `NodeInput.spoken` with the same `id`, and only then is the command answered
/// (its result says how long the speech is).
public struct SpeechRequest: Sendable, Equatable {
    public var id: UInt64
    public var text: String
    /// 0–100, over the noise and any alarm (which are ducked while it speaks).
    public var volume: Int

    public init(id: UInt64, text: String, volume: Int) {
        self.id = id
        self.text = text
        self.volume = volume
    }
}

/// What the speech adapter made of a request.
public struct SpeechOutcome: Sendable, Equatable {
    public var id: UInt64
    /// The utterance's length, or why there is none (no eSpeak NG, an unknown voice).
    public var result: Result<Double, SpeechFailure>

    public init(id: UInt64, result: Result<Double, SpeechFailure>) {
        self.id = id
        self.result = result
    }
}

public struct SpeechFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The speech commands (`~/say`, `~/speak/time`, `~/speak/next_alarm`) and their payloads.
public enum SpeechCommand: Sendable, Equatable {
    case say(text: String, volume: Int?)
    case speakTime
    case speakNextAlarm

    public static let topics = ["say", "speak/time", "speak/next_alarm"]

    /// Nil when `suffix` is not a speech command; a `CommandError` for a bad payload.
    public static func parse(_ suffix: String, payload: [UInt8]) -> Result<SpeechCommand, CommandError>? {
        switch suffix {
        case "speak/time": return .success(.speakTime)
        case "speak/next_alarm": return .success(.speakNextAlarm)
        case "say": return parseSay(payload)
        default: return nil
        }
    }

    /// Plain text (1–300 characters), or `{"text", "volume"}`.
    private static func parseSay(_ payload: [UInt8]) -> Result<SpeechCommand, CommandError> {
        guard let text = String(validating: payload, as: UTF8.self) else { return .failure(.invalidField("text", "the text is not UTF-8")) }
        var said = text
        var volume: Int?
        if text.first == "{" {
            guard let json = try? JSONParser().parse(payload), let object = json.objectValue else {
                return .failure(CommandError(.invalidJSON, "say takes plain text or {\"text\", \"volume\"}"))
            }
            if let unknown = object.keys.first(where: { $0 != "text" && $0 != "volume" && $0 != "request_id" }) {
                return .failure(.invalidField(unknown, "unknown field; say takes text and volume"))
            }
            guard let given = object["text"]?.stringValue else { return .failure(.invalidField("text", "text is required: 1–300 characters")) }
            said = given
            if let value = object["volume"], !value.isNull {
                guard let number = value.intValue, (0...100).contains(number) else {
                    return .failure(.invalidField("volume", "volume must be 0–100"))
                }
                volume = number
            }
        }
        said = said.trimmingWhitespace()
        guard (1...300).contains(said.count) else {
            return .failure(.invalidField("text", "the text must be 1–300 characters, got \(said.count)"))
        }
        return .success(.say(text: said, volume: volume))
    }
}
