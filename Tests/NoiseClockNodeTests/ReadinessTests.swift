import Foundation
import Glibc
import NoiseClockCore
import Testing

/// Readiness on a real node, with real ALSA (PCMs of the test's own configuration), real sound
/// files and the node's clock: each problem is `at_risk` with its code at the next check, and the
/// fix is `ready`.
@Suite struct ReadinessTests {
    /// Sends `~/alarm/check` and returns its result (`ready`).
    static func check(_ harness: AudioNodeHarness) async throws -> JSONValue {
        let response = try await harness.command("alarm/check", "").response
        return try #require(response["result"])
    }

    static func codes(_ ready: JSONValue?) -> [String] {
        ready?["problems"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    /// The next `~/alarm/event` of `event` after `mark`.
    static func event(_ harness: AudioNodeHarness, _ event: String, after mark: Int) async throws -> JSONValue {
        let message = try await harness.client.waitFor("\(harness.root)/alarm/event", timeout: 10, after: mark, where: {
            $0.json?["event"]?.stringValue == event
        })
        return try #require(message.json)
    }

    /// An alarm for the problems to threaten: `at_risk` is judged per next alarm (v1.4) and names it.
    static func addAlarm(_ harness: AudioNodeHarness) async throws {
        let answer = try await harness.command("alarm/add", #"{"id": "wake", "time": "07:00"}"#).response
        #expect(answer["ok"] == true, "\(answer)")
    }

    /// `addAlarm`, then waits until `~/alarm` shows it next and ready.
    static func addReadyAlarm(_ harness: AudioNodeHarness) async throws {
        try await addAlarm(harness)
        _ = try await harness.client.waitFor("\(harness.root)/alarm", where: {
            $0.json?["next"]?["id"] == "wake" && $0.json?["ready"]?["ok"] == true
        })
    }

    static func harness(_ capture: AudioCapture, sounds: URL? = nil) async throws -> AudioNodeHarness {
        var environment = capture.environment
        if let sounds { environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = sounds.path }
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port, environment: environment)
        try node.writeClockSync("synced")
        return try await AudioNodeHarness(broker: broker, node: node, capture: capture)
    }

    @Test func anAbsentDeviceIsAtRiskUntilItIsPluggedIn() async throws {
        let capture = try AudioCapture(device: "nc_ready_absent", defined: false)
        let harness = try await Self.harness(capture)
        defer { harness.shutdown() }
        // The check at start finds no device; the alarm added is warned about.
        try await Self.addAlarm(harness)
        let risk = try await Self.event(harness, "at_risk", after: 0)
        #expect(Self.codes(risk) == ["audio_unavailable"])
        #expect(risk["id"] == "wake")
        let state = try await harness.client.waitFor("\(harness.root)/alarm", where: { $0.json?["ready"]?["ok"] == false })
        #expect(Self.codes(state.json?["ready"]) == ["audio_unavailable"])
        #expect(state.json?["ready"]?["checked_at"]?.stringValue?.isEmpty == false)

        let mark = harness.client.messages.count
        try capture.define()
        let ready = try await Self.check(harness)
        #expect(ready["ok"] == true, "\(ready)")
        #expect(Self.codes(ready).isEmpty)
        _ = try await Self.event(harness, "ready", after: mark)
    }

    /// The mixer is a real ALSA control device (Tests/Fixtures/alsa-mixer-fixture.c, an external
    /// control plugin) named as the node's PCM, read through ALSA's simple mixer as a card's.
    @Test func aMutedMixerIsAtRiskUntilItIsUnmuted() async throws {
        let capture = try AudioCapture(device: "nc_ready_mixer", withMixer: true)
        let mixer = try #require(capture.mixer)
        try mixer.set(on: true, volume: 80)
        let harness = try await Self.harness(capture)
        defer { harness.shutdown() }
        try await Self.addReadyAlarm(harness)

        var mark = harness.client.messages.count
        try mixer.set(on: false, volume: 80)
        var ready = try await Self.check(harness)
        #expect(Self.codes(ready) == ["output_muted"], "\(ready)")
        #expect(ready["problems"]?.arrayValue?.first?["message"]?.stringValue?.contains("Master playback switch is off") == true, "\(ready)")
        let risk = try await Self.event(harness, "at_risk", after: mark)
        #expect(Self.codes(risk) == ["output_muted"])
        #expect(risk["id"] == "wake")

        mark = harness.client.messages.count
        try mixer.set(on: true, volume: 80)
        ready = try await Self.check(harness)
        #expect(ready["ok"] == true, "\(ready)")
        _ = try await Self.event(harness, "ready", after: mark)

        // Switched on but at 0 is as silent.
        mark = harness.client.messages.count
        try mixer.set(on: true, volume: 0)
        ready = try await Self.check(harness)
        #expect(Self.codes(ready) == ["output_muted"], "\(ready)")
        #expect(ready["problems"]?.arrayValue?.first?["message"]?.stringValue?.contains("Master playback volume is at 0") == true, "\(ready)")
        _ = try await Self.event(harness, "at_risk", after: mark)
    }

    @Test func anUnsynchronisedClockIsAtRiskUntilItSynchronises() async throws {
        let capture = try AudioCapture(device: "nc_ready_clock")
        let harness = try await Self.harness(capture)
        defer { harness.shutdown() }
        try await Self.addReadyAlarm(harness)

        var mark = harness.client.messages.count
        try await harness.node.setClockSync("unsynced")
        var ready = try await Self.check(harness)
        #expect(Self.codes(ready) == ["clock_not_synced"], "\(ready)")
        let risk = try await Self.event(harness, "at_risk", after: mark)
        #expect(Self.codes(risk) == ["clock_not_synced"])
        #expect(risk["id"] == "wake")

        mark = harness.client.messages.count
        try await harness.node.setClockSync("synced")
        ready = try await Self.check(harness)
        #expect(ready["ok"] == true, "\(ready)")
        _ = try await Self.event(harness, "ready", after: mark)
    }

    @Test func anUnplayableSoundIsAtRiskUntilTheFileIsBack() async throws {
        let sounds = try makeTemporaryDirectory(prefix: "sounds")
        defer { try? FileManager.default.removeItem(at: sounds) }
        let song = sounds.appendingPathComponent("song.wav")
        try TimingSuite.Audio.AlarmFailsafeTests.wav().write(to: song)
        let capture = try AudioCapture(device: "nc_ready_sound")
        let harness = try await Self.harness(capture, sounds: sounds)
        defer { harness.shutdown() }
        var mark = harness.client.messages.count
        try await harness.command("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "song"}"#)
        var state = try await harness.client.waitFor("\(harness.root)/alarm", after: mark, where: {
            $0.json?["next"]?["id"] == "wake" && $0.json?["ready"]?["ok"] == true
        })

        // The file is broken: the node (which reads its files at start) cannot play the sound.
        try Data(repeating: 0x5A, count: 4096).write(to: song)
        mark = harness.client.messages.count
        try await harness.restart()
        let risk = try await Self.event(harness, "at_risk", after: mark)
        #expect(Self.codes(risk) == ["sound_unplayable"], "\(risk)")
        #expect(risk["id"] == "wake")
        var ready = try await Self.check(harness)
        #expect(Self.codes(ready) == ["sound_unplayable"])

        try TimingSuite.Audio.AlarmFailsafeTests.wav().write(to: song)
        mark = harness.client.messages.count
        try await harness.restart()
        state = try await harness.client.waitFor("\(harness.root)/alarm", after: mark,
            where: { $0.json?["ready"] != nil && $0.json?["ready"] != .null })
        #expect(state.json?["ready"]?["ok"] == true, "\(state.text)")
        ready = try await Self.check(harness)
        #expect(ready["ok"] == true)
    }
}
