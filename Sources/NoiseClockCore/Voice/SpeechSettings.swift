/// `speech:` as the machine needs it.
public struct SpeechSettings: Sendable, Equatable {
    public var enabled: Bool
    /// 0–100: the default loudness of speech.
    public var volume: Int
    /// The eSpeak NG voice (`speech.voice`, or the locale's).
    public var voice: String
    /// Say what a button did (`speech.confirm_buttons`).
    public var confirmButtons: Bool
    /// Why speech cannot work, as far as files on disk tell without loading eSpeak NG (nil: it can).
    public var problem: String?

    public init(enabled: Bool = true, volume: Int = 70, voice: String = "en", confirmButtons: Bool = true, problem: String? = nil) {
        self.enabled = enabled
        self.volume = volume
        self.voice = voice
        self.confirmButtons = confirmButtons
        self.problem = problem
    }

    /// `~/speech` before anything was said.
    public var initialStatus: SpeechStatus {
        guard enabled else { return SpeechStatus(voice: voice, error: "speech is off (speech.enabled: false)") }
        return SpeechStatus(voice: voice, error: problem)
    }
}

/// `~/speech` (retained): whether the node can speak, with which voice, and why not.
public struct SpeechStatus: Sendable, Equatable {
    public var voice: String
    /// nil: `ok`; otherwise `unavailable`, and why.
    public var error: String?

    public init(voice: String, error: String?) {
        self.voice = voice
        self.error = error
    }

    public var publication: Publication {
        let body: JSONValue = ["status": .string(error == nil ? "ok" : "unavailable"), "voice": .string(voice), "error": .optional(error)]
        return Publication(topic: "speech", body: .json(body), retain: true, qos: 1)
    }
}

/// A speech command waiting for its utterance.
struct PendingSpeech: Sendable {
    var reply: DeferredReply
    var text: String
}
