import Foundation
import NoiseClockCore
import Testing

/// Uses every entity the way Home Assistant does: the payload comes from the entity's retained
/// config (`payload_on`, `payload_press`, the option or number, through `command_template`), goes
/// to the config's `command_topic`, and the node's state changes as the entity promises.
struct HomeAssistantNodeCommandTests {
    typealias T = HomeAssistantCommandTemplate

    @Test func everyEntityCommandChangesTheNodeAsHomeAssistantExpects() async throws {
        // ALSA's `null` device takes the sound (and plays it nowhere): speech needs a device that opens.
        let rig = try await HomeAssistantRig(environment: ["NOISECLOCK_AUDIO_DEVICE": "null"])
        let id = try await rig.addAlarm(label: "Wake up")
        let configs = try await rig.retainedConfigs()
        func entity(_ component: String, _ object: String) throws -> JSONObject { try rig.config(component, object, in: configs) }

        // Noise: switch on, pick another sound, volume, sleep timer, preview, switch off.
        let noise = try entity("switch", "noise")
        let on = try await rig.use(noise, try T.turn(noise, on: true), expect: "noise") { $0["playing"] == true }
        let sound = try entity("select", "noise_sound")
        let other = try #require(sound["options"]?.arrayValue?.compactMap(\.stringValue).first { $0 != on["sound"]?.stringValue })
        try await rig.use(sound, try T.payload(sound, value: other), expect: "noise") { $0["sound"] == .string(other) }
        let volume = try entity("number", "noise_volume")
        try await rig.use(volume, try T.payload(volume, value: "35"), expect: "noise") { $0["volume"] == 35 }
        let timer = try entity("number", "noise_sleep_timer")
        try await rig.use(timer, try T.payload(timer, value: "30"), expect: "noise") {
            $0["sleep_timer_minutes"] == 30 && $0["stops_at"]?.stringValue != nil
        }
        let preview = try await rig.press(try entity("button", "noise_preview"))
        #expect(preview["ok"] == true && preview["result"]?["sound"] == .string(other), "\(preview)")
        try await rig.use(noise, try T.turn(noise, on: false), expect: "noise") { $0["playing"] == false }

        // Snooze and dismiss with nothing ringing: the node answers not_found and stays idle.
        let snooze = try entity("button", "alarm_snooze"), dismiss = try entity("button", "alarm_dismiss")
        for button in [snooze, dismiss] {
            let answer = try await rig.press(button)
            #expect(answer["ok"] == false && answer["error"]?["code"] == "not_found", "\(answer)")
        }
        // Ringing (alarm/test), then the buttons snooze and dismiss it; the event entity sees each step.
        let event = try entity("event", "alarm_event")
        let eventTypes = Set(event["event_types"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let eventTopic = try #require(event["state_topic"]?.stringValue)
        for (step, state, kind) in [("test", "ringing", "fired"), ("snooze", "snoozed", "snoozed"), ("dismiss", "idle", "dismissed")] {
            let mark = rig.client.messages.count
            let answer = step == "test" ? try await rig.command("alarm/test", id) : try await rig.press(step == "snooze" ? snooze : dismiss)
            #expect(answer["ok"] == true, "\(step): \(answer)")
            try await rig.waitForState("alarm", after: mark) { $0["state"] == .string(state) }
            let seen = try await rig.client.waitFor(eventTopic, timeout: 10, after: mark)
            #expect(seen.json?["event"] == .string(kind) && eventTypes.contains(kind), "\(seen.text)")
            if step == "test" {
                // The null device accepts the ring's samples: the failsafe's `sounding` follows, a type the entity knows.
                let sounding = try await rig.client.waitFor(eventTopic, timeout: 5, after: mark, where: { $0.json?["event"] == "sounding" })
                #expect(sounding.json?["fallback"] == false && eventTypes.contains("failed") && eventTypes.contains("sounding"))
            }
        }

        // The alarms' pause: writing a date pauses until it, clearing the text resumes.
        let pause = try entity("text", "alarms_paused_until")
        try await rig.use(pause, try T.payload(pause, value: "2099-12-31"), expect: "alarm") { $0["paused_until"] == "2099-12-31" }
        try await rig.use(pause, try T.payload(pause, value: ""), expect: "alarm") { $0["paused_until"] == .null }

        // The alarm's own switch and time text.
        let enabled = try entity("switch", "alarm_\(id)_enabled")
        try await rig.use(enabled, try T.turn(enabled, on: false), expect: "alarms") { Self.alarm(id, in: $0)?["enabled"] == false }
        try await rig.use(enabled, try T.turn(enabled, on: true), expect: "alarms") { Self.alarm(id, in: $0)?["enabled"] == true }
        let text = try entity("text", "alarm_\(id)_time")
        #expect("06:45".wholeMatch(of: try Regex(try #require(text["pattern"]?.stringValue))) != nil)
        try await rig.use(text, try T.payload(text, value: "06:45"), expect: "alarms") { Self.alarm(id, in: $0)?["time"] == "06:45" }
        let speakTime = try entity("switch", "alarm_\(id)_speak_time")
        try await rig.use(speakTime, try T.turn(speakTime, on: true), expect: "alarms") { Self.alarm(id, in: $0)?["speak_time"] == true }
        try await rig.use(speakTime, try T.turn(speakTime, on: false), expect: "alarms") { Self.alarm(id, in: $0)?["speak_time"] == false }
        // v1.3: a station added joins the alarm's sound select (its config published again); picking it sets the alarm's sound.
        let stationMark = rig.client.messages.count
        #expect(try await rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://127.0.0.1:9/jazz.mp3"}"#)["ok"] == true)
        let announced = try await rig.client.waitFor(rig.configTopic("select", "alarm_\(id)_sound"), timeout: 10, after: stationMark, where: {
            $0.json?["options"]?.arrayValue?.contains("radio:jazz") == true
        })
        let alarmSound = try #require(announced.json?.objectValue)
        try await rig.use(alarmSound, try T.payload(alarmSound, value: "radio:jazz"), expect: "alarms") {
            Self.alarm(id, in: $0)?["sound"] == "radio:jazz"
        }

        // Speech: the "Speak time" button, and the notify entity's message said as written (one that
        // looks like JSON too).
        let speak = try await rig.press(try entity("button", "speak_time"))
        #expect(speak["ok"] == true && speak["command"] == "speak/time" && speak["result"]?["text"]?.stringValue?.hasPrefix("It's ") == true)
        let say = try entity("notify", "say")
        for message in ["Dinner is ready", #"{"not": "a command"}"#] {
            let answer = try await rig.send(try #require(say["command_topic"]?.stringValue), try T.payload(say, value: message))
            #expect(answer["ok"] == true && answer["result"]?["text"] == .string(message), "\(answer)")
        }

        // Style switches and the preset select.
        let hours = try entity("switch", "style_24_hour")
        try await rig.use(hours, try T.turn(hours, on: false), expect: "style") { $0["use_24_hour"] == false }
        try await rig.use(hours, try T.turn(hours, on: true), expect: "style") { $0["use_24_hour"] == true }
        let seconds = try entity("switch", "style_show_seconds")
        try await rig.use(seconds, try T.turn(seconds, on: true), expect: "style") { $0["show_seconds"] == true }
        try await rig.use(seconds, try T.turn(seconds, on: false), expect: "style") { $0["show_seconds"] == false }
        let preset = try entity("select", "style_preset")
        #expect(preset["options"]?.arrayValue?.contains("day") == true)
        try await rig.use(preset, try T.payload(preset, value: "day"), expect: "style") {
            $0["digit_color"] == "#000000" && $0["background_color"] == "#FFFFFF"
        }
    }

    @Test(arguments: [
        (#"{"id": "a-1", "enabled": {{ 'true' if value == 'ON' else 'false' }}}"#, "ON", #"{"id": "a-1", "enabled": true}"#),
        (#"{"id": "a-1", "enabled": {{ 'true' if value == 'ON' else 'false' }}}"#, "OFF", #"{"id": "a-1", "enabled": false}"#),
        (#"{"time": {{ value | to_json }}}"#, "06:45", #"{"time": "06:45"}"#),
        ("{{ {'text': value} | to_json }}", #"{"a": "b"}"#, #"{"text":"{\"a\": \"b\"}"}"#),
        ("{{ value }}", "day", "day"),
    ])
    func theTemplateRendererFillsTheFormsTheConfigsUse(template: String, value: String, rendered: String) throws {
        #expect(try T.render(template, value: value) == rendered)
    }

    @Test func theTemplateRendererRefusesWhatItCannotRender() {
        #expect(throws: TestFailure.self) { try T.render("{{ value | float }}", value: "1") }
        #expect(throws: TestFailure.self) { try T.render("{% if value %}x{% endif %}", value: "1") }
    }

    static func alarm(_ id: String, in alarms: JSONValue) -> JSONValue? {
        alarms.arrayValue?.first { $0["id"]?.stringValue == id }
    }
}

extension HomeAssistantRig {
    /// Sends `payload` to the entity's command topic; expects `ok` and then a `~/state` update
    /// that satisfies `predicate`. Returns that state.
    @discardableResult
    func use(_ entity: JSONObject, _ payload: String, expect state: String,
             where predicate: @escaping @Sendable (JSONValue) -> Bool) async throws -> JSONValue {
        guard let topic = entity["command_topic"]?.stringValue else { throw TestFailure("no command_topic in \(entity)") }
        let mark = client.messages.count
        let response = try await send(topic, payload)
        guard response["ok"] == true else { throw TestFailure("\(topic) \(payload): \(response)") }
        return try await waitForState(state, after: mark, where: predicate)
    }

    /// A button press: `payload_press` to the command topic; returns the response.
    func press(_ button: JSONObject) async throws -> JSONValue {
        guard let topic = button["command_topic"]?.stringValue else { throw TestFailure("no command_topic in \(button)") }
        return try await send(topic, try HomeAssistantCommandTemplate.press(button))
    }
}
