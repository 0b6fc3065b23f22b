/// The features the machine answers itself (their commands are `MachineCommand`s, or wait for an
/// adapter like `alarm/check`), beside the `NodeCore`'s: each a typed owner of its state and its
/// rules. The machine routes inputs to them and carries out what they return.
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
