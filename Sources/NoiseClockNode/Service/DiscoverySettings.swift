/// Home Assistant discovery as configured (`home_assistant.*`).
struct DiscoverySettings: Sendable {
    var enabled: Bool
    var prefix: String

    /// Home Assistant announces itself here; `online` means "send your configs again".
    var birthTopic: String { "\(prefix)/status" }
}
