/// `speech:` as the machine needs it.
public struct SpeechSettings: Sendable, Equatable {
    public var enabled: Bool
    /// 0–100: the default loudness of speech.
    public var volume: Int

    public init(enabled: Bool = true, volume: Int = 70) {
        self.enabled = enabled
        self.volume = volume
    }
}

/// A speech command waiting for its utterance.
struct PendingSpeech: Sendable {
    var command: String
    var text: String
    var origin: CommandOrigin
}
