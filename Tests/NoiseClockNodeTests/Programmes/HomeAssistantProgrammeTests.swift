import Foundation
import NoiseClockCore
import Testing

/// The sleep programme entities on a real node, used as Home Assistant uses them: the routine's
/// switch, the preset buttons, the timer-end sensor, the cancel button, mixes in the sound select.
struct HomeAssistantProgrammeTests {
    typealias T = HomeAssistantCommandTemplate

    @Test func programmeEntitiesDriveTheNode() async throws {
        let rig = try await HomeAssistantRig()
        // A routine brings its switch; a mix joins the sound select.
        var mark = rig.client.messages.count
        #expect(try await rig.command("routine/add", #"{"id": "bed", "label": "Bedtime", "start": "22:30"}"#)["ok"] == true)
        let switchTopic = rig.configTopic("switch", "routine_bed_enabled")
        try await rig.client.waitFor(switchTopic, timeout: 10, after: mark)
        #expect(try await rig.command("mix/set",
            #"{"id": "rainy_brown", "layers": [{"sound": "rain", "volume": 70}, {"sound": "brown"}]}"#)["ok"] == true)
        let selectTopic = rig.configTopic("select", "noise_sound")
        try await rig.client.waitFor(selectTopic, timeout: 10, after: mark, where: {
            $0.json?["options"]?.arrayValue?.contains("rainy_brown") == true
        })
        let configs = try await rig.retainedConfigs()
        func entity(_ component: String, _ object: String) throws -> JSONObject { try rig.config(component, object, in: configs) }
        for (topic, object) in configs where topic.contains("routine") || topic.contains("timer") {
            #expect(HomeAssistantSchema.problems(DiscoveryConfig(topic: topic, payload: .object(object))) == [], "\(topic)")
        }

        let routine = try entity("switch", "routine_bed_enabled")
        #expect(routine["name"] == "Bedtime")
        try await rig.use(routine, try T.turn(routine, on: false), expect: "routines") { $0.arrayValue?.first?["enabled"] == false }
        try await rig.use(routine, try T.turn(routine, on: true), expect: "routines") { $0.arrayValue?.first?["enabled"] == true }

        let sound = try entity("select", "noise_sound")
        try await rig.use(sound, try T.payload(sound, value: "rainy_brown"), expect: "noise") { $0["sound"] == "rainy_brown" }

        // The nap button starts the preset; the sensor's topic carries its end; cancel stops it.
        mark = rig.client.messages.count
        let nap = try await rig.press(try entity("button", "timer_preset_nap"))
        #expect(nap["ok"] == true && nap["result"]?["seconds"] == 1200 && nap["result"]?["label"] == "Nap", "\(nap)")
        let end = try entity("sensor", "timer_end")
        let timers = try await rig.waitForState("timers", after: mark) { $0.arrayValue?.count == 1 }
        #expect(end["state_topic"]?.stringValue == "\(rig.root)/timers")
        #expect(timers.arrayValue?.first?["ends_at"] == nap["result"]?["ends_at"])
        mark = rig.client.messages.count
        let cancel = try await rig.press(try entity("button", "timer_cancel_all"))
        #expect(cancel["ok"] == true && cancel["result"]?.arrayValue?.count == 1)
        try await rig.waitForState("timers", after: mark) { $0 == [] }

        // Deleting the routine removes its switch.
        mark = rig.client.messages.count
        #expect(try await rig.command("routine/delete", "bed")["ok"] == true)
        try await rig.client.waitFor(switchTopic, timeout: 10, after: mark, where: { $0.payload.isEmpty })
    }
}
