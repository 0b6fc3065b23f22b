import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// `buttons:` and `button_timing:` (mqtt-api.md, v1.2 "Buttons"): read from YAML or JSON in the
/// environment; every problem names the entry and its field.
@Suite("Configuration: buttons")
struct ConfigurationButtonTests {
    func load(_ yaml: String, environment: [String: String] = [:]) async throws -> NodeConfiguration {
        let scratch = ConfigScratch()
        return try await NodeConfiguration.load(path: scratch.config(yaml), environment: environment, hostName: "x").configuration
    }

    @Test func noButtonsByDefault() async throws {
        let configuration = try await load("")
        #expect(configuration.buttons.isEmpty)
        #expect(configuration.buttonTiming == ButtonTiming(holdSeconds: 1.0, doubleSeconds: 0.35))
    }

    @Test func localAndMQTTButtonsWithTheirActions() async throws {
        let configuration = try await load("""
            buttons:
              - id: top
                input:
                  device: /dev/input/by-path/platform-gpio-keys-event
                  key: KEY_ENTER
              - id: side
                input: {device: /dev/input/event3, key: 116}
                double: none
                hold: none
              - id: bedside
                mqtt:
                  topic: zigbee2mqtt/bedside_button
                  field: action
                press: snooze
                double: timer:nap
                hold: {command: noise/set, payload: "OFF"}
            button_timing:
              hold_seconds: 2
              double_seconds: 0.5
            """)
        #expect(configuration.buttons == [
            ButtonDefinition(id: "top", source: .input(device: "/dev/input/by-path/platform-gpio-keys-event", key: InputKey(code: 28))),
            ButtonDefinition(id: "side", source: .input(device: "/dev/input/event3", key: InputKey(code: 116)), double: .none, hold: .none),
            ButtonDefinition(
                id: "bedside", source: .mqtt(MQTTButtonSource(topic: "zigbee2mqtt/bedside_button", field: "action")),
                press: .snooze, double: .timer("nap"), hold: .command("noise/set", payload: "OFF")),
        ])
        #expect(configuration.buttonTiming == ButtonTiming(holdSeconds: 2, doubleSeconds: 0.5))
        #expect(configuration.buttons[1].detector(timing: configuration.buttonTiming).isPressOnly)
    }

    @Test func fromTheEnvironmentAsJSON() async throws {
        let configuration = try await load("", environment: [
            "NOISECLOCK_BUTTONS": #"[{"id": "t", "mqtt": {"topic": "tasmota/stat/button", "press": "SINGLE", "double": "DOUBLE", "hold": "HOLD"}}]"#,
            "NOISECLOCK_BUTTON_TIMING_DOUBLE_SECONDS": "0.25",
        ])
        #expect(configuration.buttons == [
            ButtonDefinition(id: "t", source: .mqtt(MQTTButtonSource(
                topic: "tasmota/stat/button", field: nil, values: [.press: "SINGLE", .double: "DOUBLE", .hold: "HOLD"]))),
        ])
        #expect(configuration.buttonTiming.doubleSeconds == 0.25)
    }

    @Test("a bad entry names its field", arguments: [
        ("buttons: top", "buttons", "expected a list"),
        ("buttons:\n  - top", "buttons[0]", "expected a mapping"),
        ("buttons:\n  - id: Top\n    mqtt: {topic: a}", "buttons[0].id", "must be [a-z0-9_-], 1–32 characters"),
        ("buttons:\n  - id: a", "buttons[0]", "needs `input`"),
        ("buttons:\n  - id: a\n    mqtt: {topic: a}\n    input: {device: /x, key: 1}", "buttons[0]", "not both"),
        ("buttons:\n  - id: a\n    input: {device: /x, key: KEY_ENTR}", "buttons[0].input.key", "\"KEY_ENTR\" is not a KEY_*/BTN_* name"),
        ("buttons:\n  - id: a\n    input: {key: KEY_ENTER}", "buttons[0].input.device", "must be set"),
        ("buttons:\n  - id: a\n    mqtt: {topic: z/#}", "buttons[0].mqtt.topic", "without + or #"),
        ("buttons:\n  - id: a\n    mqtt: {topic: z, press: x, double: x}", "buttons[0].mqtt", "three different values"),
        ("buttons:\n  - id: a\n    mqtt: {topic: z}\n    press: snoze", "buttons[0].press", "unknown action \"snoze\""),
        ("buttons:\n  - id: a\n    mqtt: {topic: z}\n    hold: {command: nois/set}", "buttons[0].hold.command", "must be a command topic suffix"),
        ("buttons:\n  - id: a\n    mqtt: {topic: z}\n    colour: red", "buttons[0].colour", "unknown key"),
        ("buttons:\n  - id: a\n    mqtt: {topic: z}\n  - id: a\n    mqtt: {topic: y}", "buttons[1].id", "\"a\" is given twice"),
        ("button_timing:\n  hold_seconds: 0.2", "button_timing.hold_seconds", "must be between 0.5 and 5, got 0.2"),
        ("button_timing:\n  double_seconds: fast", "button_timing.double_seconds", "expected a number"),
        ("button_timing:\n  double_seconds: .inf", "button_timing.double_seconds", "expected a number"),
    ])
    func badEntry(yaml: String, key: String, message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aBadEnvironmentListNamesItsVariable() async throws {
        let error = try #require(await configurationError("", environment: ["NOISECLOCK_BUTTONS": #"[{"id": "a"}]"#]))
        #expect(error.description.hasPrefix("configuration error: buttons[0]: needs `input`"))
        #expect(error.description.hasSuffix("(from NOISECLOCK_BUTTONS)"))
        let notJSON = try #require(await configurationError("", environment: ["NOISECLOCK_BUTTONS": "top"]))
        #expect(notJSON.description == "configuration error: buttons: expected a list, got \"top\" (from NOISECLOCK_BUTTONS)")
    }
}
