/// What the machine keeps beside the `NodeCore` to carry out the features' effects: the speaker
/// and the button board (what `speak` and `learnButtons` draw on), and the commands waiting for an
/// adapter (`alarm/check`, `station/test`, `devices/test`), each a typed owner of its state and
/// its rules. The machine routes inputs and effects to them.
struct MachineFeatures: Sendable {
    /// Speech: settings, `~/speech`, utterances out with the adapter.
    var speaker: Speaker
    /// The configured buttons and their devices' status.
    var buttons: ButtonBoard
    /// `~/alarm/check` commands waiting for the readiness check.
    var checks = ReadinessWaiters()
    /// `station/test` commands waiting for their probe.
    var probes = StationProbes()
    /// `devices/test` commands waiting for the device's answer.
    var deviceProbes = DeviceProbes()
}

extension NodeMachine {
    /// The configured buttons and their devices' status (kept by `features`).
    public var buttons: ButtonBoard { features.buttons }
    /// `~/speech` as last published (kept by the speaker).
    public var speechStatus: SpeechStatus { features.speaker.status }
}
