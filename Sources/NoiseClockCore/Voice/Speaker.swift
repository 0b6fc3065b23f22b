/// The node's voice as the machine keeps it: the settings, `~/speech`, and the utterances out
/// with the speech adapter, each with the command waiting for it (if any). Its rules: when a
/// speech command is refused, how each utterance is numbered, what an outcome answers.
struct Speaker: Sendable {
    let settings: SpeechSettings
    /// `~/speech`: from the settings' check of the files at start, then from each utterance.
    private(set) var status: SpeechStatus
    /// Speech commands waiting for their utterance's length before they are answered.
    private var pending: [UInt64: PendingSpeech] = [:]
    private var nextID: UInt64 = 1

    init(settings: SpeechSettings) {
        self.settings = settings
        status = settings.initialStatus
    }

    /// Why a speech command cannot be heard now (nil: it can): speech is off, or the sound device
    /// cannot be opened.
    func refusal(audio: AudioStatus?) -> CommandError? {
        guard settings.enabled else { return CommandError(.speechUnavailable, "speech is off (speech.enabled: false)") }
        if let audio, audio.state == .unavailable {
            let reason = audio.error ?? "unavailable"
            return CommandError(.audioUnavailable, "the sound device cannot be opened, so the words cannot be heard: \(reason)")
        }
        return nil
    }

    /// One utterance for the adapter, at `volume` or the default; `reply` is answered once it is spoken.
    mutating func utter(_ text: String, volume: Int? = nil, answering reply: DeferredReply? = nil) -> SpeechRequest {
        let id = nextID
        nextID += 1
        if let reply { pending[id] = PendingSpeech(reply: reply, text: text) }
        return SpeechRequest(id: id, text: text, volume: volume ?? settings.volume)
    }

    /// The adapter spoke (or could not): `~/speech` follows it, and the waiting command (if any)
    /// gets its answer, `{"text", "seconds"}` or `speech_unavailable`.
    mutating func spoken(_ outcome: SpeechOutcome) -> (response: Response, origin: CommandOrigin)? {
        switch outcome.result {
        case .success: status.error = nil
        case .failure(let failure): status.error = failure.message
        }
        guard let waiting = pending.removeValue(forKey: outcome.id) else { return nil }
        let result: Result<JSONValue, CommandError>
        switch outcome.result {
        case .success(let seconds):
            result = .success(.object(JSONObject([("text", .string(waiting.text)), ("seconds", .double(Self.rounded(seconds)))])))
        case .failure(let failure):
            result = .failure(CommandError(.speechUnavailable, failure.message))
        }
        return (waiting.reply.response(result), waiting.reply.origin)
    }

    /// Seconds to the hundredth, as answers and logs give them.
    static func rounded(_ seconds: Double) -> Double { (seconds * 100).rounded() / 100 }
}
