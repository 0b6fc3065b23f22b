import Testing
@testable import NoiseClockCore

/// Device commands leave the machine as `NodeEffect.publish` on the device's own topic, before
/// anything else of the same input; the bridge's report comes back as an input.
@Suite struct DeviceEffectsTests {
    static let lamp = DeviceEndpoint(topic: "zigbee2mqtt/lamp", bridge: .zigbee2mqtt)

    static func machine(now: Instant) -> NodeMachine {
        let core = NodeCore(
            settings: NodeSettings(nodeID: "bed", locale: .en, zone: MachineRig.zone, devices: DeviceSettings(light: lamp)),
            catalog: MachineRig.catalog, now: now)
        return NodeMachine(
            core: core, topics: MachineRig.topics, discovery: DiscoverySettings(enabled: false, prefix: "homeassistant", configurationURL: nil),
            persisted: core.persistentState(), seed: 42)
    }

    static func step(_ machine: inout NodeMachine, _ topic: String, _ payload: String, now: Instant) -> [NodeEffect] {
        let plan = machine.plan(.message(InboundMessage(topic: topic, payload: Array(payload.utf8))), now: now)
        return machine.finish(plan, failure: nil)
    }

    @Test func aCommandToTheLampIsTheFirstEffectAndTheBridgesReportConfirmsIt() throws {
        let now = Instant(seconds: 1_795_241_070)
        var machine = Self.machine(now: now)
        _ = machine.start(now: now)
        _ = machine.finish(machine.plan(.connected, now: now), failure: nil)
        let effects = Self.step(&machine, "noiseclock/bed/light/set", #"{"state": "ON", "brightness": 50, "request_id": "r"}"#, now: now)
        let first = try #require(effects.publications.first)
        #expect(first.topic == "zigbee2mqtt/lamp/set" && !first.retain && first.qos == 1)
        #expect(first.text == #"{"state":"ON","brightness":127,"transition":0}"#)
        #expect(effects.topics.filter { !$0.hasPrefix("noiseclock/") } == ["zigbee2mqtt/lamp/set"])
        #expect(effects.published("noiseclock/bed/light").last?.text.contains(#""confirmed":false"#) == true)
        let report = Self.step(&machine, "zigbee2mqtt/lamp", #"{"state":"ON","brightness":127}"#, now: now.adding(seconds: 1))
        #expect(report.published("noiseclock/bed/light").last?.text.contains(#""confirmed":true"#) == true)
        #expect(machine.core.devices.lamp.confirmation.state == .confirmed)
    }
}
