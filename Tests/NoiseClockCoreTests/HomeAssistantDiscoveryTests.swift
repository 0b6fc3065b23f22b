import Testing
@testable import NoiseClockCore

enum HomeAssistantFixtures {
    static let sounds = [
        SoundCatalog.Entry(id: "brown", name: "Brown noise", category: "noise"),
        SoundCatalog.Entry(id: "pink", name: "Pink noise", category: "noise"),
        SoundCatalog.Entry(id: "rain", name: "Rain", category: "nature"),
    ]

    static func alarm(_ id: String, _ label: String, _ hour: Int, _ minute: Int) -> Alarm {
        var alarm = Alarm(id: id, time: AlarmTime(hour: hour, minute: minute), sound: "classic")
        alarm.label = label
        return alarm
    }

    static let wake = alarm("wake-1", "Wake up", 7, 30)
    static let nap = alarm("Nap_2", "Nap", 14, 0)

    static let bedtime: Routine = {
        var routine = Routine(id: "bedtime", start: AlarmTime(hour: 22, minute: 30))
        routine.label = "Bedtime"
        return routine
    }()

    static func context(node: String = "bedroom", alarms: [Alarm] = [wake, nap], battery: Bool = true) -> DiscoveryContext {
        DiscoveryContext(
            nodeID: node, root: "noiseclock/\(node)", softwareVersion: "1.2.3",
            alarms: alarms, noiseSounds: sounds, batteryPresent: battery,
            routines: [bedtime], timerPresets: TimerPreset.defaults
        )
    }

    /// What the contract says the node publishes and handles, relative to `~/`.
    static let published: Set<String> = [
        "availability", "time", "battery", "alarms", "alarm", "alarm/fired", "alarm/event", "noise", "style", "sounds",
        "audio", "response", "routines", "routine/event", "timers", "timer/presets", "timer/event", "light", "speech",
        "info",
    ]
    static let commands: Set<String> = [
        "alarm/add", "alarm/update", "alarm/delete", "alarm/enable", "alarm/disable", "alarm/duplicate", "alarm/skip",
        "alarm/test", "alarm/snooze", "alarm/dismiss", "alarms/set", "style/set", "style/preset", "noise/set",
        "noise/sound/set", "noise/volume/set", "noise/sleep_timer/set", "noise/preview",
        "alarms/pause", "alarms/resume",
        "routine/add", "routine/update", "routine/delete", "routine/enable", "routine/disable", "routines/set",
        "routine/start", "routine/stop", "timer/start", "timer/cancel", "timer/presets/set", "mix/set", "mix/delete", "light/set",
        "say", "speak/time",
    ]

    static func config(_ configs: [DiscoveryConfig], _ component: String, _ object: String) -> JSONObject? {
        configs.first { $0.topic == "homeassistant/\(component)/bedroom/\(object)/config" }?.payload.objectValue
    }
}

@Suite struct HomeAssistantDiscoveryTests {
    typealias F = HomeAssistantFixtures

    @Test func everyConfigPassesThePlatformChecks() {
        let configs = HomeAssistantDiscovery.configs(F.context())
        // noise 5, alarm 5, style 3, two alarms 4, pause and synced 2, one routine 1, routine event 1,
        // three presets 3, timer end 1, cancel timers 1, battery 2, audio 1; v1.2: the light 1 and each
        // alarm's sunrise minutes 2, alarm ready 1, speak time 1, say (notify) 1, speech status 1, each
        // alarm's speak-time switch 2; v1.3: now playing 1, each alarm's sound select 2; v1.4: safe mode 1
        #expect(configs.count == 42)
        for config in configs {
            #expect(HomeAssistantSchema.problems(config) == [], "\(config.topic)")
        }
    }

    @Test func theValidatorRejectsWhatHomeAssistantRejects() {
        let good = HomeAssistantDiscovery.configs(F.context()).first { $0.component == "number" }!
        var object = good.payload.objectValue!
        object["min"] = 100
        object["mode"] = "dial"
        object["object_id"] = "legacy"
        let problems = HomeAssistantSchema.problems(DiscoveryConfig(topic: good.topic, payload: .object(object)))
        #expect(problems.count == 3)
    }

    @Test func topicsFollowPerEntityDiscovery() throws {
        let regex = try Regex(#"^homeassistant/(switch|select|number|button|text|sensor|binary_sensor|event|light|notify)"#
            + #"/bedroom/[a-zA-Z0-9_-]+/config$"#)
        let configs = HomeAssistantDiscovery.configs(F.context())
        for config in configs {
            #expect(config.topic.wholeMatch(of: regex) != nil, "\(config.topic)")
        }
        #expect(Set(configs.map(\.topic)).count == configs.count)
    }

    @Test func theConfigFilterMatchesEveryConfigOfTheNodeAndNoOtherNode() {
        #expect(HomeAssistantDiscovery.configFilter(prefix: "homeassistant", nodeID: "bedroom") == "homeassistant/+/bedroom/+/config")
        let filter = HomeAssistantDiscovery.configFilter(prefix: "homeassistant", nodeID: "bedroom").split(separator: "/")
        func matches(_ topic: String) -> Bool {
            let levels = topic.split(separator: "/")
            return levels.count == filter.count && zip(levels, filter).allSatisfy { $1 == "+" || $0 == $1 }
        }
        #expect(HomeAssistantDiscovery.configs(F.context()).allSatisfy { matches($0.topic) })
        #expect(!HomeAssistantDiscovery.configs(F.context(node: "kitchen")).contains { matches($0.topic) })
    }

    @Test func uniqueIDsAreUniqueAcrossTwoNodes() {
        let both = HomeAssistantDiscovery.configs(F.context(node: "bedroom")) + HomeAssistantDiscovery.configs(F.context(node: "kitchen"))
        let ids = both.compactMap { $0.payload["unique_id"]?.stringValue }
        #expect(ids.count == both.count)
        #expect(Set(ids).count == ids.count)
        let entityIDs = both.compactMap { $0.payload["default_entity_id"]?.stringValue }
        #expect(Set(entityIDs).count == both.count)
    }

    @Test(arguments: [
        ("switch", "noise", "switch.noiseclock_bedroom_noise"),
        ("select", "noise_sound", "select.noiseclock_bedroom_noise_sound"),
        ("sensor", "next_alarm", "sensor.noiseclock_bedroom_next_alarm"),
        ("event", "alarm_event", "event.noiseclock_bedroom_alarm_event"),
        ("switch", "alarm_wake-1_enabled", "switch.noiseclock_bedroom_alarm_wake_1_enabled"),
        ("text", "alarm_Nap_2_time", "text.noiseclock_bedroom_alarm_nap_2_time"),
    ])
    func defaultEntityIDsAreDomainDotSlug(component: String, object: String, expected: String) throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), component, object))
        #expect(config["default_entity_id"]?.stringValue == expected)
        #expect(config["unique_id"]?.stringValue == "noiseclock_bedroom_" + object)
    }

    @Test func nothingUsesTheDeprecatedObjectID() {
        func mentionsObjectID(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let object): object.keys.contains("object_id") || object.pairs.contains { mentionsObjectID($0.value) }
            case .array(let items): items.contains(where: mentionsObjectID)
            default: false
            }
        }
        #expect(!HomeAssistantDiscovery.configs(F.context()).contains { mentionsObjectID($0.payload) })
    }

    @Test func everyTopicIsOneTheContractDefines() {
        let root = "noiseclock/bedroom/"
        let subscribed = Set(TopicScheme(base: "noiseclock", nodeID: "bedroom").commandSubscriptions)
        for config in HomeAssistantDiscovery.configs(F.context()) {
            let object = config.payload.objectValue!
            for key in ["state_topic", "json_attributes_topic", "availability_topic"] {
                guard let topic = object[key]?.stringValue else { continue }
                #expect(topic.hasPrefix(root) && F.published.contains(String(topic.dropFirst(root.count))), "\(config.topic) \(key)")
            }
            if let topic = object["command_topic"]?.stringValue {
                #expect(topic.hasPrefix(root) && F.commands.contains(String(topic.dropFirst(root.count))), "\(config.topic)")
                #expect(subscribed.contains(topic), "\(config.topic): the node does not subscribe to \(topic)")
            }
        }
    }

    @Test func deviceAndOriginAreShared() throws {
        let configs = HomeAssistantDiscovery.configs(F.context())
        let device = try #require(configs.first?.payload["device"])
        #expect(configs.allSatisfy { $0.payload["device"] == device && $0.payload["origin"] != nil })
        #expect(device["identifiers"] == ["noiseclock_bedroom"])
        #expect(device["sw_version"] == "1.2.3")
        #expect(device["configuration_url"] == nil)
        var context = F.context()
        context.configurationURL = "http://bedroom.local:8080"
        #expect(HomeAssistantDiscovery.configs(context)[0].payload["device"]?["configuration_url"] == "http://bedroom.local:8080")
    }

    @Test func pauseTextAndSyncedSensor() throws {
        let configs = HomeAssistantDiscovery.configs(F.context())
        let pause = try #require(F.config(configs, "text", "alarms_paused_until"))
        #expect(pause["state_topic"] == "noiseclock/bedroom/alarm")
        #expect(pause["command_topic"] == "noiseclock/bedroom/alarms/pause")
        let pattern = try Regex(try #require(pause["pattern"]?.stringValue))
        for good in ["2026-12-28", ""] { #expect(good.wholeMatch(of: pattern) != nil, "\(good)") }
        for bad in ["28.12.2026", "2026-12-28T00:00", "soon"] { #expect(bad.wholeMatch(of: pattern) == nil, "\(bad)") }
        let synced = try #require(F.config(configs, "binary_sensor", "clock_synced"))
        #expect(synced["state_topic"] == "noiseclock/bedroom/time")
        #expect(synced["entity_category"] == "diagnostic")
        let ready = try #require(F.config(configs, "binary_sensor", "alarm_ready"))
        #expect(ready["name"] == "Alarm ready")
        #expect(ready["state_topic"] == "noiseclock/bedroom/alarm")
        #expect(ready["json_attributes_topic"] == "noiseclock/bedroom/alarm")
    }

    @Test func batteryEntitiesOnlyWithABattery() {
        let with = HomeAssistantDiscovery.configs(F.context(battery: true)).map(\.component)
        let without = HomeAssistantDiscovery.configs(F.context(battery: false)).map(\.component)
        // Besides the always-present "clock synchronised" and "safe mode" diagnostics and "alarm ready".
        #expect(with.filter { $0 == "binary_sensor" }.count == 4)
        #expect(without.filter { $0 == "binary_sensor" }.count == 3)
        #expect(with.count - without.count == 2)
        let removed = HomeAssistantDiscovery.removalTopics(
            previous: HomeAssistantDiscovery.configs(F.context(battery: true)),
            current: HomeAssistantDiscovery.configs(F.context(battery: false)))
        #expect(removed == ["homeassistant/sensor/bedroom/battery/config", "homeassistant/binary_sensor/bedroom/battery_charging/config"])
    }

    @Test func perAlarmEntitiesFollowTheAlarmList() throws {
        let before = HomeAssistantDiscovery.configs(F.context(alarms: [F.wake]))
        #expect(F.config(before, "switch", "alarm_wake-1_enabled")?["name"] == "Wake up")
        #expect(F.config(before, "text", "alarm_wake-1_time")?["name"] == "Wake up time")

        // Added: its five configs, nothing removed.
        let added = HomeAssistantDiscovery.configs(F.context(alarms: [F.wake, F.nap]))
        #expect(Set(added.map(\.topic)).subtracting(before.map(\.topic)) == [
            "homeassistant/switch/bedroom/alarm_Nap_2_enabled/config", "homeassistant/text/bedroom/alarm_Nap_2_time/config",
            "homeassistant/number/bedroom/alarm_Nap_2_light_minutes/config", "homeassistant/switch/bedroom/alarm_Nap_2_speak_time/config",
            "homeassistant/select/bedroom/alarm_Nap_2_sound/config",
        ])
        #expect(HomeAssistantDiscovery.removalTopics(previous: before, current: added) == [])

        // Renamed: same topics and unique ids, new names.
        var renamed = F.wake
        renamed.label = "Gym"
        let afterRename = HomeAssistantDiscovery.configs(F.context(alarms: [renamed, F.nap]))
        #expect(afterRename.map(\.topic) == added.map(\.topic))
        #expect(F.config(afterRename, "switch", "alarm_wake-1_enabled")?["name"] == "Gym")
        #expect(F.config(afterRename, "text", "alarm_wake-1_time")?["name"] == "Gym time")
        #expect(F.config(afterRename, "text", "alarm_wake-1_time")?["unique_id"] == F.config(added, "text", "alarm_wake-1_time")?["unique_id"])

        // Deleted: its five configs must be cleared.
        let afterDelete = HomeAssistantDiscovery.configs(F.context(alarms: [F.nap]))
        #expect(HomeAssistantDiscovery.removalTopics(previous: afterRename, current: afterDelete) == [
            "homeassistant/switch/bedroom/alarm_wake-1_enabled/config", "homeassistant/text/bedroom/alarm_wake-1_time/config",
            "homeassistant/number/bedroom/alarm_wake-1_light_minutes/config", "homeassistant/switch/bedroom/alarm_wake-1_speak_time/config",
            "homeassistant/select/bedroom/alarm_wake-1_sound/config",
        ])
    }

    @Test func optionsComeFromTheirSources() throws {
        let configs = HomeAssistantDiscovery.configs(F.context())
        #expect(F.config(configs, "select", "noise_sound")?["options"] == ["brown", "pink", "rain"])
        #expect(F.config(configs, "select", "style_preset")?["options"] == .array(StylePreset.allCases.map { .string($0.rawValue) }))
        #expect(F.config(configs, "select", "style_preset")?["state_topic"] == nil)
        #expect(F.config(configs, "event", "alarm_event")?["event_types"]
            == ["pre_alarm", "fired", "snoozed", "dismissed", "timed_out", "missed", "sounding", "failed", "shaking", "at_risk", "ready"])
        let volume = try #require(F.config(configs, "number", "noise_volume"))
        #expect(volume["min"] == 0 && volume["max"] == 100 && volume["mode"] == "slider")
        #expect(F.config(configs, "number", "noise_sleep_timer")?["mode"] == "box")
    }

    @Test func buttonsSendTheEmptyPayloadTheCommandsTake() {
        let buttons = HomeAssistantDiscovery.configs(F.context()).filter { $0.component == "button" }
        let plain = buttons.filter { !$0.topic.contains("/timer_") }
        #expect(plain.compactMap { $0.payload["command_topic"]?.stringValue }.sorted()
            == ["noiseclock/bedroom/alarm/dismiss", "noiseclock/bedroom/alarm/snooze", "noiseclock/bedroom/noise/preview",
                "noiseclock/bedroom/speak/time"])
        #expect(plain.allSatisfy { $0.payload["payload_press"] == "" })
    }

    @Test func timerButtonsStartPresetsAndCancelAll() throws {
        let configs = HomeAssistantDiscovery.configs(F.context())
        for preset in TimerPreset.defaults {
            let button = try #require(F.config(configs, "button", "timer_preset_\(preset.id)"))
            #expect(button["command_topic"] == "noiseclock/bedroom/timer/start")
            #expect(button["name"] == .string(preset.label))
            let payload = try #require(button["payload_press"]?.stringValue)
            #expect(try JSONParser().parse(Array(payload.utf8))["preset"] == .string(preset.id))
        }
        let cancel = try #require(F.config(configs, "button", "timer_cancel_all"))
        #expect(cancel["command_topic"] == "noiseclock/bedroom/timer/cancel" && cancel["payload_press"] == "all")
        let end = try #require(F.config(configs, "sensor", "timer_end"))
        #expect(end["device_class"] == "timestamp" && end["state_topic"] == "noiseclock/bedroom/timers")
        let routine = try #require(F.config(configs, "switch", "routine_bedtime_enabled"))
        #expect(routine["command_topic"] == "noiseclock/bedroom/routine/update" && routine["name"] == "Bedtime")
        let event = try #require(F.config(configs, "event", "routine_event"))
        #expect(event["event_types"] == ["started", "ended", "overridden", "resumed"])
    }

    @Test func mixesAreOptionsOfTheSoundSelect() throws {
        var catalog = SoundCatalog(noise: F.sounds, alarm: [])
        catalog.mixes = [Mix(id: "rainy_brown", name: "Rainy brown", layers: [.init(sound: "rain", volume: 70), .init(sound: "brown", volume: 100)])]
        var context = F.context()
        context.noiseSounds = catalog.noiseEntries
        let select = try #require(F.config(HomeAssistantDiscovery.configs(context), "select", "noise_sound"))
        #expect(select["options"] == ["brown", "pink", "rain", "rainy_brown"])
    }

    @Test(arguments: ["00:00", "07:30", "09:05", "19:59", "23:59"])
    func theTimePatternAcceptsWhatTheNodePublishes(text: String) throws {
        let pattern = try Regex(HomeAssistantDiscovery.alarmTimePattern)
        let time = try #require(AlarmTime(parsing: text))
        #expect(time.description.wholeMatch(of: pattern) != nil)
    }

    @Test(arguments: ["24:00", "7:30", "07:60", "07:30 AM", ""])
    func theTimePatternRejectsOtherForms(text: String) throws {
        #expect(text.wholeMatch(of: try Regex(HomeAssistantDiscovery.alarmTimePattern)) == nil)
    }
}
