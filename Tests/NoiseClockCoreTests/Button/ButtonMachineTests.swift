import Testing
@testable import NoiseClockCore

/// Buttons in the machine: learn mode needs a local input device to listen to, and a device's
/// status is logged with only the fields it has.
@Suite struct ButtonMachineTests {
    static let input = ButtonDefinition(id: "top", source: .input(device: "/dev/input/event0", key: InputKey(code: 28)))
    static let mqtt = ButtonDefinition(id: "bedside", source: .mqtt(MQTTButtonSource(topic: "zigbee2mqtt/b", field: "action")))

    static func rig(_ definitions: [ButtonDefinition]) -> MachineRig {
        var rig = MachineRig()
        let core = rig.machine.core
        rig.machine = NodeMachine(
            core: core, topics: MachineRig.topics, discovery: rig.machine.discovery, persisted: core.persistentState(), seed: 1,
            buttons: ButtonBoard(definitions: definitions))
        rig.step(.connected)
        return rig
    }

    func learns(_ effects: [NodeEffect]) -> Bool {
        effects.contains { if case .learnButtons = $0 { true } else { false } }
    }

    /// Only MQTT buttons (or none): their bridges name their own payloads, and no key could be
    /// heard, so learn mode is refused and nothing starts.
    @Test(arguments: [[mqtt], []])
    func learnModeWithoutAnInputDeviceIsRefused(definitions: [ButtonDefinition]) throws {
        var rig = Self.rig(definitions)
        let effects = rig.command("buttons/learn", "")
        #expect(!learns(effects))
        let response = try #require(effects.json("noiseclock/bed/response"))
        #expect(response["ok"] == false && response["command"] == "buttons/learn")
        #expect(response["error"]?["code"] == "not_found")
        #expect(response["error"]?["message"]?.stringValue?.contains("nothing to learn from") == true)
        #expect(effects.logs.map(\.message) == ["command refused"])
    }

    @Test func learnModeWithAnInputDeviceListensFor30Seconds() throws {
        var rig = Self.rig([Self.mqtt, Self.input])
        let effects = rig.command("buttons/learn", "")
        #expect(learns(effects))
        #expect(effects.json("noiseclock/bed/response")?["result"] == ["seconds": 30])
    }

    @Test func aConnectedDeviceIsLoggedWithoutAnErrorField() throws {
        var rig = Self.rig([Self.input])
        let connected = rig.step(.button(.device(path: "/dev/input/event0", .init(connected: true, error: nil))))
        let record = try #require(connected.logs.first { $0.message == "button device connected" })
        #expect(record.metadata == ["device": "/dev/input/event0"])
        let missing = rig.step(.button(.device(path: "/dev/input/event0", .init(connected: false, error: "unplugged"))))
        let gone = try #require(missing.logs.first { $0.message == "button device missing" })
        #expect(gone.metadata == ["device": "/dev/input/event0", "error": "unplugged"])
    }

    /// `~/buttons` names a command action `command:<topic>`; its payload is beside it, by gesture.
    @Test func theButtonsListCarriesACommandsPayload() throws {
        let board = ButtonBoard(definitions: [
            Self.input,
            ButtonDefinition(id: "bedside", source: Self.mqtt.source, double: .command("noise/volume/set", payload: "35"),
                             hold: .command("noise/set", payload: "TOGGLE")),
        ])
        guard case .json(let json) = board.retained.body, let list = json.arrayValue, list.count == 2 else {
            Issue.record("~/buttons is a JSON array of two")
            return
        }
        #expect(list[0]["payloads"] == [:])
        #expect(list[1]["hold"] == "command:noise/set" && list[1]["payloads"] == ["double": "35", "hold": "TOGGLE"])
    }
}
