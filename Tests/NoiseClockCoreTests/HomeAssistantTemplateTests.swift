import Testing
@testable import NoiseClockCore

/// The templates read keys that the node's real payloads carry, and the command templates, filled
/// in the way Home Assistant fills them, give JSON the node's commands accept.
@Suite struct HomeAssistantTemplateTests {
    typealias F = HomeAssistantFixtures

    /// A real payload for each state topic, from the core types (AlarmState from the contract).
    static let payloads: [String: JSONValue] = [
        "noise": NoiseState(playing: true, sound: "brown", volume: 40, sleepTimerMinutes: 30).json(zone: .utc),
        "battery": BatteryReading(level: 87, status: .charging).json,
        "audio": AudioStatus(device: "default", state: .ok).json,
        "style": ClockStyle().json,
        "alarm": [
            "state": "ringing", "alarm_id": "wake-1", "label": "Wake up", "since": "2026-11-21T07:30:00+01:00",
            "snooze_until": nil, "next": ["id": "wake-1", "label": "Wake up", "at": "2026-11-22T07:30:00+01:00"],
            "paused_until": "2026-12-28",
            "ready": AlarmReadiness(checkedAt: Instant(milliseconds: 0), problems: [ReadinessProblem(.outputMuted, "off")]).json(zone: .utc),
        ],
        "time": ["iso": "2026-11-21T07:30:00+01:00", "epoch": 1_795_242_600, "synced": true],
        "info": NodeInfo(
            startedAt: Instant(milliseconds: 0), configFile: "/etc/noiseclock/noiseclock.yaml", stateDirectory: "/var/lib/noiseclock",
            architecture: "aarch64", safeMode: SafeModeStatus(since: Instant(milliseconds: 0), crashedStarts: 2, lastError: "SIGILL (signal 4)")
        ).json(zone: .utc),
        "alarm/event": AlarmEvent.fired.payload(
            alarm: F.wake, scheduled: Instant(milliseconds: 0), at: Instant(milliseconds: 0), snoozeCount: 0, test: false, zone: .utc),
        "alarms": [F.wake.json],
        "routines": [RoutinesFeature().output(F.bedtime,
            context: FeatureContext(now: Instant(milliseconds: 0), zone: .utc, locale: .en, catalog: .empty))],
        "routine/event": {
            guard case .json(let body) = RoutineEvent.started.publication(F.bedtime, at: Instant(milliseconds: 0),
                zone: .utc).body else { return .null }
            return body
        }(),
        "speech": {
            guard case .json(let body) = SpeechStatus(voice: "en", error: "no eSpeak NG voice").publication.body else { return .null }
            return body
        }(),
        "timers": [CountdownTimer(id: "t1", label: "Nap", seconds: 1200, sound: "chime", startedAt: Instant(milliseconds: 0),
                                  endsAt: Instant(milliseconds: 1_200_000)).json(zone: .utc)],
    ]

    /// The loop variable a template uses over an array topic.
    static let loopVariables = ["/alarms": "a", "/routines": "r", "/timers": "t"]

    /// `value_json.a.b` paths (and `a.key` for the per-alarm loop variable) a template reads.
    static func paths(_ template: String, variable: String) -> [[String]] {
        var out: [[String]] = []
        var rest = Substring(template)
        while let range = rest.firstRange(of: variable + ".") {
            let tail = rest[range.upperBound...]
            let path = tail.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            out.append(path.split(separator: ".").map(String.init))
            rest = tail
        }
        return out
    }

    @Test func templatesReadKeysThePayloadsHave() throws {
        let root = "noiseclock/bedroom/"
        var checked = 0
        for config in HomeAssistantDiscovery.configs(F.context()) {
            let object = config.payload.objectValue!
            for (topicKey, templateKey) in [("state_topic", "value_template"), ("json_attributes_topic", "json_attributes_template")] {
                guard let topic = object[topicKey]?.stringValue, let template = object[templateKey]?.stringValue else { continue }
                let payload = try #require(Self.payloads[String(topic.dropFirst(root.count))], "\(topic)")
                let loop = Self.loopVariables.first { topic.hasSuffix($0.key) }?.value
                let sample = loop != nil ? payload.arrayValue![0] : payload
                let variable = loop ?? "value_json"
                let paths = Self.paths(template, variable: variable)
                #expect(!paths.isEmpty, "\(config.topic) \(templateKey)")
                for path in paths {
                    var value: JSONValue? = sample
                    for key in path { value = value?[key] }
                    #expect(value != nil, "\(config.topic): \(variable).\(path.joined(separator: ".")) is not in the payload")
                    checked += 1
                }
            }
        }
        #expect(checked > 30)
    }

    @Test func theEventTemplateMapsEveryAlarmEventKey() throws {
        let event = try #require(Self.payloads["alarm/event"]?.objectValue)
        let template = HomeAssistantDiscovery.eventValueTemplate
        #expect(template.contains("'event_type': value_json.event"))
        for key in event.keys where key != "event" {
            #expect(template.contains("'\(key)': value_json.\(key)"), "\(key)")
        }
    }

    /// Fills the two template forms the configs use, as Home Assistant would for `value`.
    static func render(_ template: String, value: String) -> String {
        template
            .replacing("{{ 'true' if value == 'ON' else 'false' }}", with: value == "ON" ? "true" : "false")
            .replacing("{{ value | to_json }}", with: JSONValue.string(value).serialized)
    }

    @Test(arguments: ["ON", "OFF"])
    func theAlarmSwitchSendsAnUpdateTheAlarmAccepts(value: String) throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "switch", "alarm_wake-1_enabled"))
        let json = try JSONParser().parse(Self.render(try #require(config["command_template"]?.stringValue), value: value))
        #expect(json["id"] == "wake-1")
        let updated = try F.wake.merging(json.objectValue!, catalog: .empty)
        #expect(updated.enabled == (value == "ON"))
    }

    @Test func theSunriseNumberSendsAnUpdateTheAlarmAccepts() throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "number", "alarm_wake-1_light_minutes"))
        let template = try #require(config["command_template"]?.stringValue)
        let json = try JSONParser().parse(template.replacing("{{ value | int }}", with: "20"))
        let updated = try F.wake.merging(json.objectValue!, catalog: .empty)
        #expect(updated.lightMinutes == 20)
        #expect(config["value_template"]?.stringValue?.contains("a.light_minutes") == true)
    }

    @Test func theLightEntityDrivesLightSet() throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "light", "light"))
        #expect(config["command_topic"] == "noiseclock/bedroom/light/set" && config["state_topic"] == "noiseclock/bedroom/light")
        #expect(config["schema"] == "template")
    }

    @Test func theAlarmTextSendsAnUpdateTheAlarmAccepts() throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "text", "alarm_wake-1_time"))
        let json = try JSONParser().parse(Self.render(try #require(config["command_template"]?.stringValue), value: "06:45"))
        let updated = try F.wake.merging(json.objectValue!, catalog: .empty)
        #expect(updated.time == AlarmTime(hour: 6, minute: 45))
        #expect(updated.label == F.wake.label)
    }

    @Test(arguments: [("style_24_hour", "use_24_hour"), ("style_show_seconds", "show_seconds")])
    func styleSwitchesSendOneField(object: String, field: String) throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "switch", object))
        let template = try #require(config["command_template"]?.stringValue)
        #expect(try JSONParser().parse(Self.render(template, value: "ON")) == .object(JSONObject([(field, true)])))
        #expect(try JSONParser().parse(Self.render(template, value: "OFF")) == .object(JSONObject([(field, false)])))
    }

    @Test func perAlarmTemplatesSelectTheirAlarmByID() throws {
        let config = try #require(F.config(HomeAssistantDiscovery.configs(F.context()), "switch", "alarm_Nap_2_enabled"))
        #expect(config["value_template"]
            == "{% for a in value_json if a.id == 'Nap_2' %}{{ 'ON' if a.enabled else 'OFF' }}{% else %}None{% endfor %}")
    }
}
