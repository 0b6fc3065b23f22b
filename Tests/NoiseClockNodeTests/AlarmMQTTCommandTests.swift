import Foundation
import Glibc
import NoiseClockCore
import Testing

/// The alarm commands over a real broker: refusals that change nothing, and the
/// `mosquitto_pub` forms the docs show.
struct AlarmMQTTCommandTests {
    struct BadCommand: Sendable {
        let topic: String
        let payload: String
        let code: String
        let field: String?
        init(_ topic: String, _ payload: String, _ code: String, _ field: String? = nil) {
            self.topic = topic
            self.payload = payload
            self.code = code
            self.field = field
        }
    }

    static let tooMany = "[" + (0...100).map { _ in #"{"time": "07:00"}"# }.joined(separator: ",") + "]"

    static let badCommands: [BadCommand] = [
        .init("alarm/add", "{not json", "invalid_json"),
        .init("alarm/add", "[]", "invalid_json"),
        .init("alarm/add", "", "invalid_json"),
        .init("alarm/add", "7:30", "invalid_json"),
        .init("alarm/add", "{}", "invalid_field", "time"),
        .init("alarm/add", #"{"time": "25:00"}"#, "invalid_field", "time"),
        .init("alarm/add", #"{"time": "07:60"}"#, "invalid_field", "time"),
        .init("alarm/add", #"{"time": 730}"#, "invalid_field", "time"),
        .init("alarm/add", #"{"time": "13:00 PM"}"#, "invalid_field", "time"),
        .init("alarm/add", #"{"time": "07:30", "volume": 101}"#, "invalid_field", "volume"),
        .init("alarm/add", #"{"time": "07:30", "volume": "loud"}"#, "invalid_field", "volume"),
        .init("alarm/add", #"{"time": "07:30", "snooze_minutes": 6}"#, "invalid_field", "snooze_minutes"),
        .init("alarm/add", #"{"time": "07:30", "ring_minutes": 0}"#, "invalid_field", "ring_minutes"),
        .init("alarm/add", #"{"time": "07:30", "ramp_seconds": 3601}"#, "invalid_field", "ramp_seconds"),
        .init("alarm/add", #"{"time": "07:30", "pre_alarm_minutes": -1}"#, "invalid_field", "pre_alarm_minutes"),
        .init("alarm/add", #"{"time": "07:30", "repeat": ["mon", "funday"]}"#, "invalid_field", "repeat"),
        .init("alarm/add", #"{"time": "07:30", "repeat": "sometimes"}"#, "invalid_field", "repeat"),
        .init("alarm/add", #"{"time": "07:30", "label": "\#(String(repeating: "x", count: 65))"}"#, "invalid_field", "label"),
        .init("alarm/add", #"{"time": "07:30", "date": "2026-02-30"}"#, "invalid_field", "date"),
        .init("alarm/add", #"{"time": "07:30", "date": "2030-01-01", "repeat": "daily"}"#, "invalid_field", "date"),
        .init("alarm/add", #"{"time": "07:30", "sound": "kazoo"}"#, "unknown_sound", "sound"),
        .init("alarm/add", #"{"time": "07:30", "enabled": "yes"}"#, "invalid_field", "enabled"),
        .init("alarm/add", #"{"time": "07:30", "colour": "red"}"#, "invalid_field", "colour"),
        .init("alarm/add", #"{"time": "07:30", "skip_next": true}"#, "invalid_field", "skip_next"),
        .init("alarm/add", #"{"time": "07:30", "id": "has space"}"#, "invalid_field", "id"),
        .init("alarm/add", #"{"time": "07:30", "id": "wake-1"}"#, "invalid_field", "id"),
        .init("alarm/update", #"{"label": "No id"}"#, "invalid_field", "id"),
        .init("alarm/update", #"{"id": "no-such-alarm", "label": "x"}"#, "not_found"),
        .init("alarm/update", #"{"id": "wake-1", "volume": -5}"#, "invalid_field", "volume"),
        .init("alarm/update", #"{"id": "wake-1", "time": "noon"}"#, "invalid_field", "time"),
        .init("alarm/update", #"{"id": "daily-1", "date": "2030-01-01"}"#, "invalid_field", "date"),
        .init("alarm/delete", "no-such-alarm", "not_found"),
        .init("alarm/delete", #"{"id": 42}"#, "invalid_field", "id"),
        .init("alarm/delete", "", "invalid_field", "id"),
        .init("alarm/enable", "{}", "invalid_field", "id"),
        .init("alarm/skip", "wake-1", "invalid_field", "repeat"),
        .init("alarm/test", "no-such-alarm", "not_found"),
        .init("alarm/duplicate", "[1]", "invalid_json"),
        .init("alarms/set", #"{"time": "07:30"}"#, "invalid_json"),
        .init("alarms/set", "[1]", "invalid_json"),
        .init("alarms/set", #"[{"time": "07:30"}, {"time": "99:99"}]"#, "invalid_field", "time"),
        .init("alarms/set", #"[{"id": "dup", "time": "07:30"}, {"id": "dup", "time": "08:00"}]"#, "invalid_field", "id"),
        .init("alarms/set", tooMany, "limit_exceeded"),
        .init("alarm/snooze", "6", "invalid_field", "minutes"),
        .init("alarm/snooze", #"{"minutes": 30}"#, "invalid_field", "minutes"),
        .init("alarm/snooze", #"{"minutes": 5, "extra": 1}"#, "invalid_field", "extra"),
        .init("alarm/snooze", "", "not_found"),
        .init("alarm/dismiss", "", "not_found"),
    ]

    @Test func malformedPayloadsAreAnsweredAndChangeNothing() async throws {
        #expect(Self.badCommands.count >= 30)
        let (rig, node) = try await AlarmRig.started()
        defer { rig.shutdown() }
        try await rig.ok(node, "alarm/add", #"{"id": "wake-1", "time": "07:30", "label": "Wake"}"#)
        try await rig.ok(node, "alarm/add", #"{"id": "daily-1", "time": "06:00", "repeat": "daily"}"#)
        let before = try await rig.retained(node, "alarms")
        let fileBefore = try Data(contentsOf: node.alarmsFile)
        let mark = rig.client.messages.count

        for bad in Self.badCommands {
            let response = try await rig.command(node, bad.topic, bad.payload)
            let label = "\(bad.topic) \(bad.payload.prefix(80))"
            #expect(response["command"] == .string(bad.topic), "\(label)")
            #expect(response["ok"] == false, "\(label) → \(response.serialized)")
            #expect(response["error"]?["code"] == .string(bad.code), "\(label) → \(response.serialized)")
            #expect(response["error"]?["field"] == (bad.field.map { .string($0) } ?? .null), "\(label) → \(response.serialized)")
            #expect(response["error"]?["message"]?.stringValue?.isEmpty == false, "\(label)")
        }
        try await rig.barrier(node)
        #expect(rig.messages(node, "alarms", after: mark).isEmpty)
        #expect(rig.messages(node, "alarm", after: mark).isEmpty)
        #expect(rig.messages(node, "alarm/event", after: mark).isEmpty)
        let after = try await rig.retained(node, "alarms")
        #expect(after == before)
        #expect(try Data(contentsOf: node.alarmsFile) == fileBefore)
        #expect(node.isRunning)
    }

    /// `mosquitto_pub -r` while the node runs: refused (it would run again on every reconnect),
    /// nothing changes; clearing it with an empty retained message is not answered.
    @Test func aLiveRetainedCommandIsRefusedAndItsClearingIgnored() async throws {
        let (rig, node) = try await AlarmRig.started()
        defer { rig.shutdown() }
        let before = try await rig.retained(node, "noise")
        let mark = rig.client.messages.count
        rig.client.publish("\(rig.root(node))/noise/volume/set", "55", retain: true)
        let response = try await rig.client.waitFor("\(rig.root(node))/response", timeout: 10, after: mark)
        let json = try #require(response.json)
        #expect(json["ok"] == false)
        #expect(json["error"]?["code"] == "invalid_field")
        #expect(json["error"]?["field"] == "retain")
        let cleared = rig.client.messages.count
        rig.client.publish("\(rig.root(node))/noise/volume/set", "", retain: true)
        try await rig.barrier(node)
        let answers = rig.messages(node, "response", after: cleared)
        #expect(answers.count == 1, "only the barrier is answered: \(answers.map(\.text))")
        #expect(rig.messages(node, "noise", after: mark).isEmpty)
        #expect(try await rig.retained(node, "noise") == before)
    }

    @Test func weekdayAlarmFromMosquittoPub() async throws {
        let (rig, node) = try await AlarmRig.started()
        defer { rig.shutdown() }
        let mark = rig.client.messages.count
        try mosquittoPub(port: rig.broker.port, topic: "\(rig.root(node))/alarm/add",
            message: #"{"time":"6:45 AM","repeat":"weekdays","label":"Work"}"#)
        let response = try await rig.client.waitFor("\(rig.root(node))/response", after: mark)
        let result = try #require(response.json?["result"])
        #expect(response.json?["ok"] == true)
        #expect(result["time"] == "06:45")
        #expect(result["repeat"] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(result["repeat_text"] == "Weekdays")
        #expect(result["label"] == "Work")
        let expected = MinuteBoundary.iso(Self.nextWeekday(hour: 6, minute: 45, after: Date()))
        #expect(result["next_trigger"] == .string(expected))
        let state = try await rig.retained(node, "alarm")
        #expect(state["next"]?["at"] == .string(expected))
    }

    /// The next Monday–Friday at hour:minute UTC after `now`.
    static func nextWeekday(hour: Int, minute: Int, after now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = calendar.startOfDay(for: now)
        while true {
            let candidate = day.addingTimeInterval(Double(hour * 3600 + minute * 60))
            let weekday = calendar.component(.weekday, from: candidate)  // 1 = Sunday
            if candidate > now, (2...6).contains(weekday) { return candidate }
            day = day.addingTimeInterval(86_400)
        }
    }
}

/// Runs the real `mosquitto_pub`, as a user following the docs would.
func mosquittoPub(port: Int, topic: String, message: String) throws {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("mosquitto_pub-\(UUID().uuidString.prefix(8)).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let process = try ChildProcess(
        path: "/usr/bin/mosquitto_pub", arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-m", message],
        environment: [:], logPath: log.path
    )
    let status = process.wait(timeout: 10)
    guard status == 0 else { throw TestFailure("mosquitto_pub "
        + "exited \(String(describing: status)): \((try? String(contentsOf: log, encoding: .utf8)) ?? "")") }
}
