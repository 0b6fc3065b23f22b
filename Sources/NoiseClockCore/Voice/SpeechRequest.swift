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

/// What the speech adapter made of a request: the utterance's length, or why there is none (no
/// eSpeak NG, an unknown voice).
public typealias SpeechOutcome = AdapterOutcome<Double, SpeechFailure>

public struct SpeechFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The speech commands (`~/say`, `~/speak/time`, `~/speak/next_alarm`) and their payloads.
public enum SpeechCommand: Sendable, Equatable {
    case say(text: String, volume: Int?)
    case speakTime
    case speakNextAlarm

    /// `say`'s text: 1–300 characters, counted in Unicode scalars (`TextLength`).
    public static let textLength = TextLength(1...300)

    /// The command, or a `CommandError` for a bad payload. The payload was classified first
    /// (`CommandPayload.classify`: at most 64 KiB, UTF-8, JSON when it starts like JSON), as every
    /// command's is.
    public static func parse(_ command: VoiceCommand, payload: CommandPayload) -> Result<SpeechCommand, CommandError> {
        do throws(CommandError) {
            switch command {
            case .speakTime:
                try payload.requireEmpty(for: command)
                return .success(.speakTime)
            case .speakNextAlarm:
                try payload.requireEmpty(for: command)
                return .success(.speakNextAlarm)
            case .say: return .success(try parseSay(payload))
            }
        } catch {
            return .failure(error)
        }
    }

    /// Plain text (1–300 characters), a JSON string, or `{"text", "volume"}`. Control characters
    /// go before the text is measured (`SpeechText.clean`: eSpeak NG would act on them).
    private static func parseSay(_ payload: CommandPayload) throws(CommandError) -> SpeechCommand {
        var said: String
        var volume: Int?
        switch payload {
        case .empty: throw .invalidField("text", "text is required: \(textLength)")
        case .plain(let text), .json(.string(let text)): said = text
        case .json(.object(let object)):
            if let unknown = object.keys.first(where: { $0 != "text" && $0 != "volume" && $0 != "request_id" }) {
                throw .invalidField(String(unknown.prefix(64)), "unknown field; say takes text and volume")
            }
            guard let given = object["text"]?.stringValue else { throw .invalidField("text", "text is required: \(textLength)") }
            said = given
            if let value = object["volume"], !value.isNull {
                volume = try FieldCheck.integer(value, "volume", in: FieldCheck.percent)
            }
        case .json(let other): throw CommandError(.invalidJSON, "say takes plain text or {\"text\", \"volume\"}, got \(other.typeName)")
        }
        said = SpeechText.clean(said).trimmingWhitespace()
        try textLength.check(said, "text")
        return .say(text: said, volume: volume)
    }
}
