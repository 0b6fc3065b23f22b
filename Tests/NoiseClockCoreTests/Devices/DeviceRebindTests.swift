import Testing
@testable import NoiseClockCore

/// The settings page's lamp, shaker and buttons re-bound in the machine (`NodeInput.rebind`), and
/// the devices' "Test" (`devices/test`), on a plain clock.
@Suite struct DeviceRebindTests {
    static let lampA = DeviceEndpoint(topic: "zigbee2mqtt/lamp", bridge: .zigbee2mqtt)
    static let lampB = DeviceEndpoint(topic: "bulb", bridge: .tasmota)

    static func step(_ machine: inout NodeMachine, _ input: NodeInput, _ now: Instant) -> [NodeEffect] {
        machine.finish(machine.plan(input, now: now), failure: nil)
    }

    static func bindings(_ devices: DeviceSettings, buttons: [ButtonDefinition] = []) -> NodeInput {
        .rebind(DeviceBindings(devices: devices, buttons: buttons, buttonTiming: ButtonTiming()))
    }

    static func replies(_ effects: [NodeEffect]) -> [Response] {
        effects.compactMap { if case .reply(_, let response) = $0 { response } else { nil } }
    }

    @Test func aLitLampMovedIsSwitchedOffAtTheOldAddressAndShownAtTheNewAfterItsSubscription() throws {
        let now = Instant(seconds: 1_795_241_070)
        var machine = DeviceEffectsTests.machine(now: now)
        _ = machine.start(now: now)
        _ = Self.step(&machine, .connected, now)
        _ = DeviceEffectsTests.step(&machine, "noiseclock/bed/light/set", #"{"state": "ON", "brightness": 50}"#, now: now)
        _ = DeviceEffectsTests.step(&machine, "zigbee2mqtt/lamp", #"{"state":"ON"}"#, now: now)
        let alarms = machine.core.alarms

        let effects = Self.step(&machine, Self.bindings(DeviceSettings(light: Self.lampB)), now.adding(seconds: 1))
        // Subscribed first (the new lamp's answer must be heard), then the old lamp off, the new one on.
        guard case .subscribe(.devices, let topics) = try #require(effects.first) else {
            Issue.record("not subscribed first: \(effects)")
            return
        }
        #expect(topics == ["stat/bulb/RESULT", "stat/bulb/POWER"])
        #expect(effects.publications.prefix(2).map(\.topic) == ["zigbee2mqtt/lamp/set", "cmnd/bulb/Backlog"])
        #expect(effects.publications.first?.text.contains(#""state":"OFF""#) == true)
        #expect(effects.publications.dropFirst().first?.text == "Fade 1; Speed 1; Dimmer 50")
        #expect(machine.core.light.level.on && machine.core.light.confirmed == false)
        #expect(machine.core.alarms == alarms)
        // The old lamp's reports are no longer its; the new one's confirm.
        let report = DeviceEffectsTests.step(&machine, "stat/bulb/RESULT", #"{"POWER":"ON","Dimmer":50}"#, now: now.adding(seconds: 2))
        #expect(report.published("noiseclock/bed/light").last?.text.contains(#""confirmed":true"#) == true)
        // The same bindings again change nothing.
        #expect(Self.step(&machine, Self.bindings(DeviceSettings(light: Self.lampB)), now.adding(seconds: 3)).publications.isEmpty)
    }

    @Test func aTestIsAnsweredByTheDevicesWordOrUnconfirmedAfterFiveSeconds() throws {
        let now = Instant(seconds: 1_795_241_070)
        var machine = DeviceEffectsTests.machine(now: now)
        _ = machine.start(now: now)
        _ = Self.step(&machine, .connected, now)
        let test = NodeInput.request(LocalRequest(id: 7, command: "devices/test", payload: Array(#"{"kind": "light"}"#.utf8)))
        let asked = Self.step(&machine, test, now)
        #expect(asked.publications.map(\.topic) == ["zigbee2mqtt/lamp/get"] && asked.publications.first?.text == #"{"state":""}"#)
        #expect(Self.replies(asked).isEmpty)
        #expect(machine.nextDeadline(now: now) <= now.adding(seconds: 5))
        let answered = DeviceEffectsTests.step(&machine, "zigbee2mqtt/lamp", #"{"state":"OFF"}"#, now: now.adding(milliseconds: 120))
        let word = try #require(Self.replies(answered).first)
        #expect(word.outcome == .success(["kind": "light", "topic": "zigbee2mqtt/lamp", "protocol": "zigbee2mqtt", "status": "confirmed",
                                          "state": "OFF", "answered_ms": 120]))

        // Nothing said: `unconfirmed` when the 5 s are over, not before.
        _ = Self.step(&machine, test, now.adding(seconds: 10))
        #expect(Self.replies(Self.step(&machine, .wake, now.adding(milliseconds: 14_999))).isEmpty)
        let silence = try #require(Self.replies(Self.step(&machine, .wake, now.adding(seconds: 15))).first)
        #expect(silence.json["result"]?["status"] == "unconfirmed", "\(silence.json.serialized)")

        // Refusals: an unknown kind, a kind not configured.
        let toaster = Self.step(&machine, .request(LocalRequest(id: 8, command: "devices/test", payload: Array(#"{"kind": "toaster"}"#.utf8))), now)
        #expect(Self.replies(toaster).first?.json["error"]?["field"] == "kind")
        let shaker = Self.step(&machine, .request(LocalRequest(id: 9, command: "devices/test", payload: Array(#"{"kind": "shaker"}"#.utf8))), now)
        #expect(Self.replies(shaker).first?.json["error"]?["code"] == "not_found")
    }

    @Test func newButtonsRestartTheReadersAndResubscribeTheMQTTButtons() {
        let now = Instant(seconds: 1_795_241_070)
        var machine = DeviceEffectsTests.machine(now: now)
        _ = machine.start(now: now)
        _ = Self.step(&machine, .connected, now)
        let button = ButtonDefinition(id: "top", source: .input(device: "/tmp/event0", key: InputKey(code: 28)))
        let effects = Self.step(&machine, Self.bindings(DeviceSettings(light: Self.lampA), buttons: [button]), now)
        #expect(effects.contains(.readButtons(ButtonBoard(definitions: [button]))))
        #expect(effects.contains(.subscribe(.buttons, [])))
        #expect(effects.published("noiseclock/bed/buttons").count == 1)
        #expect(machine.buttons.definitions == [button])
        // Learning a device no button reads yet.
        let learnPayload = Array(#"{"device": "/tmp/event1"}"#.utf8)
        let learn = Self.step(&machine, .request(LocalRequest(id: 3, command: "buttons/learn", payload: learnPayload)), now)
        #expect(learn.contains(.learnButtons(seconds: 30, device: "/tmp/event1")))
        // Over MQTT a path is refused: anyone on the broker could have any file read.
        let overMQTT = Self.step(&machine, .message(InboundMessage(topic: "noiseclock/bed/buttons/learn", payload: learnPayload)), now)
        #expect(overMQTT.json("noiseclock/bed/response")?["error"]?["field"] == "device")
        #expect(!overMQTT.contains { if case .learnButtons = $0 { true } else { false } })
        let bad = Self.step(&machine, .request(LocalRequest(id: 4, command: "buttons/learn", payload: Array(#"{"device": "event1"}"#.utf8))), now)
        #expect(Self.replies(bad).first?.json["error"]?["field"] == "device")
    }
}
