import Foundation
import NoiseClockCore
import Testing

/// What a real node leaves retained under the discovery prefix, read back from a real broker the
/// way Home Assistant reads it, and checked against Home Assistant's platform rules
/// (`HomeAssistantSchema`, shared with the core tests through a symlink).
struct HomeAssistantNodeDiscoveryTests {
    /// Every entity the node announces with one alarm and a battery (docs/home-assistant.md).
    static func expectedObjects(alarm id: String) -> Set<String> {
        [
            "switch/noise", "select/noise_sound", "number/noise_volume", "number/noise_sleep_timer", "button/noise_preview",
            "sensor/next_alarm", "sensor/alarm_state", "event/alarm_event", "button/alarm_snooze", "button/alarm_dismiss",
            "switch/alarm_\(id)_enabled", "text/alarm_\(id)_time",
            "switch/style_24_hour", "switch/style_show_seconds", "select/style_preset",
            "sensor/battery", "binary_sensor/battery_charging", "sensor/audio_status",
            "text/alarms_paused_until", "binary_sensor/clock_synced", "binary_sensor/alarm_ready",
            "event/routine_event", "button/timer_preset_nap", "button/timer_preset_power_nap", "button/timer_preset_rest",
            "sensor/timer_end", "button/timer_cancel_all",
            "number/alarm_\(id)_light_minutes", "switch/alarm_\(id)_speak_time", "light/light", "button/speak_time", "notify/say",
                "sensor/speech_status",
            "sensor/now_playing", "select/alarm_\(id)_sound",
            "binary_sensor/safe_mode",
        ]
    }

    /// Topics the contract says are not retained (events, and `~/time` every minute): a state
    /// topic may name them unseen.
    static let eventTopics: Set<String> = ["alarm/event", "alarm/fired", "time", "routine/event", "timer/event"]

    @Test func everyRetainedConfigIsValidAndWiredToWhatTheNodeDoes() async throws {
        let rig = try await HomeAssistantRig()
        let id = try await rig.addAlarm(label: "Wake up")
        let configs = try await rig.retainedConfigs()
        let state = try await rig.retained(["\(rig.root)/#"])
        let node = rig.node.nodeID

        let objects = Set(configs.keys.map { topic in
            let parts = topic.split(separator: "/")
            return "\(parts[1])/\(parts[3])"
        })
        #expect(objects == Self.expectedObjects(alarm: id))
        #expect(state["\(rig.root)/availability"]?.text == "online")

        let commands = Set(TopicScheme(base: "noiseclock", nodeID: node).commandSubscriptions)
        for (topic, object) in configs {
            #expect(HomeAssistantSchema.problems(DiscoveryConfig(topic: topic, payload: .object(object))) == [], "\(topic)")
            #expect(object["availability_topic"]?.stringValue == "\(rig.root)/availability", "\(topic)")
            #expect(object["payload_available"] == "online" && object["payload_not_available"] == "offline", "\(topic)")
            for key in ["state_topic", "json_attributes_topic"] {
                guard let read = object[key]?.stringValue else { continue }
                let relative = read.hasPrefix(rig.root + "/") ? String(read.dropFirst(rig.root.count + 1)) : read
                #expect(state[read] != nil || Self.eventTopics.contains(relative), "\(topic) \(key) \(read): the node publishes nothing there")
            }
            if let command = object["command_topic"]?.stringValue {
                #expect(commands.contains(command), "\(topic): the node does not handle \(command)")
            }
            #expect(object["device"]?["identifiers"] == .array([.string("noiseclock_\(node)")]), "\(topic)")
        }
        let uniqueIDs = configs.values.compactMap { $0["unique_id"]?.stringValue }
        #expect(uniqueIDs.count == configs.count && Set(uniqueIDs).count == uniqueIDs.count)
        #expect(uniqueIDs.allSatisfy { $0.hasPrefix("noiseclock_\(node)_") })
        let entityIDs = configs.values.compactMap { $0["default_entity_id"]?.stringValue }
        #expect(Set(entityIDs).count == configs.count)
        // The select offers exactly the catalog's noise sounds.
        let catalog = state["\(rig.root)/sounds"]?.json?["noise"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(configs[rig.configTopic("select", "noise_sound")]?["options"]?.arrayValue?.compactMap(\.stringValue) == catalog)
    }

    @Test func perAlarmEntitiesFollowAddRenameAndDelete() async throws {
        let rig = try await HomeAssistantRig()
        let id = try await rig.addAlarm(label: "Wake up")
        let enabled = rig.configTopic("switch", "alarm_\(id)_enabled")
        let time = rig.configTopic("text", "alarm_\(id)_time")
        var configs = try await rig.retainedConfigs()
        #expect(configs[enabled]?["name"] == "Wake up")
        #expect(configs[time]?["name"] == "Wake up time")
        let uniqueID = configs[enabled]?["unique_id"]

        var mark = rig.client.messages.count
        #expect(try await rig.command("alarm/update", #"{"id": "\#(id)", "label": "Gym"}"#)["ok"] == true)
        try await rig.client.waitFor(enabled, timeout: 10, after: mark, where: { $0.json?["name"] == "Gym" })
        try await rig.client.waitFor(time, timeout: 10, after: mark, where: { $0.json?["name"] == "Gym time" })
        configs = try await rig.retainedConfigs()
        #expect(configs[enabled]?["name"] == "Gym" && configs[enabled]?["unique_id"] == uniqueID)
        #expect(configs[time]?["name"] == "Gym time")

        mark = rig.client.messages.count
        #expect(try await rig.command("alarm/delete", id)["ok"] == true)
        try await rig.client.waitFor(enabled, timeout: 10, after: mark, where: { $0.payload.isEmpty })
        try await rig.client.waitFor(time, timeout: 10, after: mark, where: { $0.payload.isEmpty })
        configs = try await rig.retainedConfigs()
        #expect(configs[enabled] == nil && configs[time] == nil)
        #expect(configs.count == Self.expectedObjects(alarm: id).count - 5)
    }
}

extension HomeAssistantRig {
    /// Adds an alarm and waits until both its entities are announced; returns its id.
    func addAlarm(label: String, time: String = "07:30") async throws -> String {
        let mark = client.messages.count
        let response = try await command("alarm/add", #"{"time": "\#(time)", "label": "\#(label)"}"#)
        guard let id = response["result"]?["id"]?.stringValue else { throw TestFailure("alarm/add failed: \(response)") }
        try await client.waitFor(configTopic("switch", "alarm_\(id)_enabled"), timeout: 10, after: mark)
        try await client.waitFor(configTopic("text", "alarm_\(id)_time"), timeout: 10, after: mark)
        return id
    }

    /// The retained config of one entity.
    func config(_ component: String, _ object: String, in configs: [String: JSONObject]) throws -> JSONObject {
        guard let config = configs[configTopic(component, object)] else { throw TestFailure("no config for \(component) \(object)") }
        return config
    }
}
