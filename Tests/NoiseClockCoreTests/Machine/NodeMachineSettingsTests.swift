import Testing
@testable import NoiseClockCore

/// `settings.json` changes go out as one effect, in the loop's order (docs/architecture.md,
/// "Settings: one writer"); the sound device and folder move by effects.
@Suite struct NodeMachineSettingsTests {
    @Test func aSettingsChangeIsHandedToTheEffectPerformerAndWritesNoStateFile() {
        var rig = MachineRig()
        rig.step(.connected)
        let edit = SettingsEdit.request(id: 7, command: .settings, body: Array(#"{"timezone": "Asia/Seoul"}"#.utf8),
                                        requestID: "r1", via: "127.0.0.1:8080")
        let plan = rig.machine.plan(.settings(edit), now: rig.now)
        #expect(plan.writes.isEmpty, "the machine writes no file for it: the effect performer's writer does")
        let effects = rig.machine.finish(plan, failure: nil)
        #expect(effects.filter { if case .editSettings = $0 { true } else { false } } == [.editSettings(edit)])
        #expect(effects.publications.isEmpty)
        let connected = rig.step(.settings(.brokerConnected(generation: 3)))
        #expect(connected.contains(.editSettings(.brokerConnected(generation: 3))))
    }

    @Test func theSoundDeviceAndFolderMoveByEffects() {
        var rig = MachineRig()
        let effects = rig.step(.soundSettings(device: "hw:1,0", soundsDirectory: "/srv/sounds"))
        #expect(effects.contains(.useSoundDevice("hw:1,0")))
        #expect(effects.contains(.watchSoundsFolder("/srv/sounds")))
        #expect(rig.step(.soundSettings(device: "default", soundsDirectory: nil)).contains(.watchSoundsFolder(nil)))
    }
}
