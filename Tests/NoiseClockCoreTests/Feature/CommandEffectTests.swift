@testable import NoiseClockCore
import Testing

/// The commands that were once the machine's own (`say`, `speak/time`, `speak/next_alarm`,
/// `buttons/learn`, `devices/test`, `safe_mode/exit`) as ordinary commands of the one table: the
/// core hands each to the feature that owns it, which answers with a typed effect
/// (`FeatureEffect`) and does nothing itself; a refusal asks for nothing. The machine only routes
/// the effect to its adapter (the last test).
@Suite struct CommandEffectTests {
    static let now = Instant(seconds: 1_795_241_070)  // 2026-11-21 06:04:30 UTC, a Saturday, 07:04 in Berlin
    static let lamp = DeviceEndpoint(topic: "zigbee2mqtt/lamp", bridge: .zigbee2mqtt)

    static func core(safeMode: SafeModeStatus? = nil) -> NodeCore {
        var settings = NodeSettings(nodeID: "bed", locale: .en, zone: MachineRig.zone, devices: DeviceSettings(light: lamp))
        settings.safeMode = safeMode
        var core = NodeCore(settings: settings, catalog: MachineRig.catalog, now: now)
        var outbox: [Publication] = []
        core.advance(to: now, outbox: &outbox)
        return core
    }

    /// The command through `NodeCore.handle`, as the machine sends it: the answer, the effects, and
    /// whether the core's state (files, retained topics) stayed as it was.
    static func send(_ suffix: String, _ payload: String, to core: NodeCore = core()) -> (Response, [FeatureEffect], unchanged: Bool) {
        var core = core
        let before = (core.persistentState(), core.retainedState(now: now).map(\.body.bytes))
        guard case .command(let message) = CommandMessage.parse(topic: suffix, payload: Array(payload.utf8)) else {
            Issue.record("\(suffix) is not in the command table")
            return (Response(command: suffix, requestID: nil, outcome: .success(.null)), [], false)
        }
        var outbox: [Publication] = []
        var effects: [FeatureEffect] = []
        let response = core.handle(message, now: now, outbox: &outbox, effects: &effects)
        let after = (core.persistentState(), core.retainedState(now: now).map(\.body.bytes))
        return (response, effects, before.0 == after.0 && before.1 == after.1)
    }

    @Test func speechCommandsComeBackFromTheVoiceAsSpeakEffects() {
        let commands: [(String, String, FeatureEffect)] = [
            ("say", #"{"text": "Good night", "volume": 30}"#, .speak(text: "Good night", volume: 30)),
            ("say", "  Hi ", .speak(text: "Hi", volume: nil)),
            ("speak/time", "", .speak(text: "It's 7:04, Saturday", volume: nil)),
            ("speak/next_alarm", #"{"request_id": 4}"#, .speak(text: "No alarm is set", volume: nil)),
        ]
        for (suffix, payload, effect) in commands {
            let (response, effects, unchanged) = Self.send(suffix, payload)
            #expect(response.outcome == .success(.null), "\(suffix): answered when spoken, not now")
            #expect(effects == [effect] && effect.answersLater, "\(suffix)")
            #expect(unchanged, "\(suffix)")
        }
    }

    @Test func learningComesBackFromTheButtonsAsALearnEffect() {
        let (response, effects, unchanged) = Self.send("buttons/learn", "")
        #expect(response.outcome == .success(["seconds": 30]))
        #expect(effects == [.learnButtons(seconds: 30, device: nil)] && unchanged)
        let named = Self.send("buttons/learn", #"{"device": "/dev/input/event3"}"#)
        #expect(named.0.outcome == .success(["seconds": 30, "device": "/dev/input/event3"]))
        #expect(named.1 == [.learnButtons(seconds: 30, device: "/dev/input/event3")])
    }

    @Test func aDeviceTestComesBackFromTheDevicesAsATestEffect() {
        let (response, effects, unchanged) = Self.send("devices/test", #"{"kind": "light", "request_id": "t"}"#)
        #expect(response.outcome == .success(.null) && response.requestID == "t")
        #expect(effects == [.testDevice(kind: "light", endpoint: Self.lamp)] && unchanged)
        #expect(FeatureEffect.testDevice(kind: "light", endpoint: Self.lamp).answersLater)
    }

    @Test func leavingSafeModeComesBackAsAnExitEffectAndOnlyInSafeMode() {
        let status = SafeModeStatus(since: Self.now, crashedStarts: 3, lastError: "SIGSEGV")
        let (response, effects, unchanged) = Self.send("safe_mode/exit", "", to: Self.core(safeMode: status))
        #expect(response.outcome == .success(["restarting": true]))
        #expect(effects == [.exitSafeMode] && unchanged)
        let normal = Self.send("safe_mode/exit", "")
        #expect(normal.0.outcome == .success(["restarting": false]) && normal.1.isEmpty)
    }

    @Test(arguments: [
        ("say", ""), ("say", #"{"text": "Hi", "volume": 101}"#), ("speak/time", #"{"now": true}"#), ("speak/next_alarm", "x"),
        ("buttons/learn", #"{"seconds": 5}"#), ("buttons/learn", #"{"device": "event3"}"#),
        ("devices/test", #"{"kind": "toaster"}"#), ("devices/test", #"{"kind": "shaker"}"#), ("safe_mode/exit", #"{"now": true}"#),
    ])
    func aRefusedCommandAsksForNothing(suffix: String, payload: String) {
        let (response, effects, unchanged) = Self.send(suffix, payload)
        #expect(!response.ok && effects.isEmpty && unchanged, "\(suffix) \(payload)")
    }

    /// The machine decides no words: what the speaker is asked to say is the voice's effect, and
    /// the device asked is the devices' effect's, each turned into the adapter's `NodeEffect`.
    @Test func theMachineRoutesTheFeaturesEffectToTheAdapter() throws {
        var rig = MachineRig()
        rig.machine.core = Self.core()
        rig.step(.connected)
        let (_, decided, _) = Self.send("speak/time", "", to: rig.machine.core)
        let spoken = rig.command("speak/time", "").compactMap { if case .speak(let request) = $0 { request.text } else { nil } }
        let said = try #require(spoken.first)
        #expect(decided == [.speak(text: said, volume: nil)] && spoken.count == 1)
        let asked = rig.command("devices/test", #"{"kind": "light"}"#)
        #expect(asked.topics.contains("zigbee2mqtt/lamp/get"))
        #expect(asked.json("noiseclock/bed/response") == nil, "answered by the lamp's word, later")
    }
}
