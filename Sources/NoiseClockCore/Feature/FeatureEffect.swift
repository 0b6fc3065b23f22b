/// What a feature's command asks of the world beyond its publications: the feature decides, the
/// machine carries it out (and, for a command answered later, keeps its reply until then), as a
/// reducer returns effects in The Composable Architecture. A feature never does the I/O itself.
public enum FeatureEffect: Sendable, Equatable {
    /// `station/test`: probe this address (connect, decode a second); the command is answered
    /// when the probe comes back (`NodeEffect.probeStation`, bounded by `StationProbes`).
    case probeStation(url: String)
    /// v1.4: a station was added with this `directory_id`: the directory is told of the choice,
    /// as it asks its clients to (`NodeEffect.tellDirectory`, once, unanswered).
    case tellDirectory(id: String)
    /// `alarm/check`: answered with the next readiness check's result (`~/alarm` `ready`), which
    /// the machine starts at once (`NodeEffect.checkReadiness`, one for every waiting command).
    case checkReadiness
    /// `say`, `speak/time`, `speak/next_alarm`: say these words (nil volume: the default); the
    /// command is answered once they are spoken (`NodeEffect.speak`, refused by the speaker when
    /// speech is off or the sound device cannot be opened).
    case speak(text: String, volume: Int?)
    /// `buttons/learn`: report every key of the local input devices, and of `device`, for
    /// `seconds` (`NodeEffect.learnButtons`; refused when there is nothing to learn from, or a
    /// device is named over MQTT).
    case learnButtons(seconds: Double, device: String?)
    /// `devices/test`: ask this device for its state; answered with its word, or `unconfirmed`
    /// after 5 s (a state query published; at most `DeviceProbes.limit` at once).
    case testDevice(kind: String, endpoint: DeviceEndpoint)
    /// `safe_mode/exit` in safe mode: the crash count is cleared and the node starts again, after
    /// the answer (`NodeEffect.exitSafeMode`).
    case exitSafeMode

    /// Whether the command is answered when the effect is done, not at once.
    public var answersLater: Bool {
        switch self {
        case .probeStation, .checkReadiness, .speak, .testDevice: true
        case .tellDirectory, .learnButtons, .exitSafeMode: false
        }
    }
}
