import Testing
@testable import NoiseClockCore

/// Every button's press, double and hold are MQTT device triggers that Home Assistant accepts,
/// matching the node's `~/button/event` payloads.
@Suite struct HomeAssistantButtonTriggerTests {
    typealias F = HomeAssistantFixtures

    func configs(buttons: [String]) -> [DiscoveryConfig] {
        var context = F.context()
        context.buttons = buttons
        return HomeAssistantDiscovery.configs(context)
    }

    @Test func threeTriggersPerButtonEachAccepted() throws {
        let triggers = configs(buttons: ["top", "bedside"]).filter { $0.component == "device_automation" }
        #expect(triggers.map(\.topic) == ["top", "bedside"].flatMap { button in
            ["press", "double", "hold"].map { "homeassistant/device_automation/bedroom/button_\(button)_\($0)/config" }
        })
        for trigger in triggers {
            #expect(HomeAssistantSchema.problems(trigger) == [], "\(trigger.topic)")
            #expect(trigger.payload["topic"] == "noiseclock/bedroom/button/event")
            #expect(trigger.payload["device"] == HomeAssistantDiscovery.device(F.context()))
        }
        let hold = try #require(triggers.first { $0.topic.contains("button_bedside_hold") }?.payload)
        #expect(hold["type"] == "button_long_press" && hold["subtype"] == "bedside" && hold["payload"] == "bedside:hold")
        #expect(configs(buttons: []).allSatisfy { $0.component != "device_automation" })
    }

    /// The template, as Home Assistant renders it for the node's event, gives the trigger's payload.
    @Test func theTemplateReadsTheEventTheNodePublishes() throws {
        let trigger = try #require(configs(buttons: ["top"]).first { $0.topic.contains("button_top_double") }?.payload)
        #expect(trigger["value_template"] == "{{ value_json.button ~ ':' ~ value_json.gesture }}")
        let event: JSONValue = ["button": "top", "gesture": "double", "action": "noise_toggle", "at": "2026-11-25T06:45:00+00:00"]
        let rendered = "\(event["button"]?.stringValue ?? ""):\(event["gesture"]?.stringValue ?? "")"
        #expect(trigger["payload"] == .string(rendered))
    }

    @Test func theValidatorRejectsABadTrigger() {
        let bad = DiscoveryConfig(
            topic: "homeassistant/device_automation/bedroom/x/config",
            payload: ["automation_type": "trigger", "topic": "t", "type": "button_pressed", "subtype": "x", "name": "X"])
        let problems = HomeAssistantSchema.problems(bad)
        #expect(problems.contains("trigger type button_pressed has no name in Home Assistant"))
        #expect(problems.contains("device_automation: key name is not an option"))
        #expect(problems.contains("device is required for grouping"))
    }
}
