import NoiseClockCore

/// The web app's own commands (`WebCommand`, HTTP only), in the table's order: `restore` and
/// `restart` come last, and each leaves the node as it found it or ends the run.
extension ContractExample {
    static func web(_ command: WebCommand, rig: Rig) -> ContractExample {
        switch command {
        // `speech.rate` applies at the next start: saving it changes nothing that plays.
        case .settings: ContractExample(valid: #"{"speech.rate": 170}"#, invalid: #"{"speech.rate": 500}"#)
        case .settingsReset: ContractExample(valid: #"{"keys": ["speech.rate"]}"#, invalid: #"{"keys": ["no.such.key"]}"#)
        // No change of the web address waits: a valid confirmation is answered `not_found` at once.
        case .settingsConfirm: ContractExample(valid: "{}", invalid: #"{"now": true}"#, validAnswered: "not_found")
        case .setupDone: ContractExample(valid: "{}", invalid: #"{"done": true}"#)
        // The node's device is ALSA's `null` (the test's environment): the chime plays into it.
        case .audioTest: ContractExample(valid: "{}", invalid: #"{"device": "file:/tmp/contract.wav"}"#)
        // The test's own mosquitto: connected within milliseconds.
        case .mqttTest: ContractExample(valid: #"{"host": "127.0.0.1", "port": \#(rig.brokerPort)}"#, invalid: #"{"port": 1883}"#)
        case .restore: ContractExample(valid: rig.backup, invalid: #"{"format": "noiseclock-backup", "version": 99}"#)
        // Answered 202, then the node restarts: the run's last request, after its refusal.
        case .restart: ContractExample(valid: "{}", invalid: #"{"now": true}"#, invalidFirst: true)
        }
    }
}
