import Foundation
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// The stream player on the real node: an alarm on a live Icecast MP3 station (a 440 Hz tone from
/// FFmpeg) plays the station at the test's capture PCM, told by its pitch (rising zero crossings),
/// and when the station goes off the air mid-ring the fallback tone (1 kHz) takes over, with
/// `sounding` saying `fallback: true`, `stream_unavailable` and the cause. `make stream-test`.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StationPlayerNodeTests {
    typealias Failsafe = TimingSuite.Audio.AlarmFailsafeTests

    /// Rising zero crossings of the capture's left channel per second over `seconds` from `from`.
    static func pitch(_ capture: AudioCapture, from: Int, seconds: Double) throws -> Double {
        let samples = try capture.read(from..<(from + AudioCapture.frames(seconds))).left
        var crossings = 0
        for index in samples.indices.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 { crossings += 1 }
        return Double(crossings) / seconds
    }

    /// A live station on loopback, heard by the node's own probe before the test goes on.
    static func onAir() async throws -> IcecastServer {
        let station = try IcecastServer()
        try station.startSource()
        try await StreamStallNodeTests.waitOnAir(station)
        return station
    }

    @Test func anAlarmOnALiveStationPlaysItThenTheFallbackToneWhenItGoesOffTheAir() async throws {
        let station = try await Self.onAir()
        defer { station.stop() }
        let harness = try await AudioNodeHarness.started(device: "nc_station_player")
        defer { harness.shutdown() }
        let capture = harness.capture
        try await harness.addStation(station.url("/jazz.mp3"))
        let added = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "radio:jazz", "volume": 80, "ramp_seconds": 0}"#)
        let id = try #require(added.response["result"]?["id"]?.stringValue)

        // The station at the speaker: `sounding` without fallback, and its 440 Hz tone captured.
        let (fired, verdict, _) = try await Failsafe.ring(harness, id)
        let heard = capture.frames
        print("station alarm: fire → sounding \(Int(verdict.at.timeIntervalSince(fired.at) * 1000)) ms: \(verdict.text)")
        #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == false, "\(verdict.text)")
        try await capture.waitForFrames(heard + AudioCapture.frames(2.2))
        let pitch = try Self.pitch(capture, from: heard + AudioCapture.frames(1.2), seconds: 1)
        // From 1.2 s: the first second holds the ring's start (the file PCM keeps what a new ring's
        // rewrite overwrote, and the encoder's padding decodes to near-zero samples).
        print("station alarm: \(pitch) rising zero crossings/s at the capture from 1.2 s to 2.2 s (the station's tone: 440)")
        #expect(abs(pitch - 440) <= 5, "the station's 440 Hz tone is at the speaker, not the 1 kHz fallback: \(pitch)")

        // Off the air mid-ring: the fallback tone within 6 s, and `sounding` says why.
        let index = harness.client.messages.count
        let stopped = Date()
        station.stopSource()
        let fallback = try await Failsafe.verdict(harness, after: index, timeout: 8)
        let atFallback = capture.frames
        let seconds = fallback.at.timeIntervalSince(stopped)
        print("station alarm: off the air → fallback sounding \(Int(seconds * 1000)) ms: \(fallback.text)")
        #expect(fallback.json?["event"] == "sounding" && fallback.json?["fallback"] == true, "\(fallback.text)")
        #expect(fallback.json?["reason"] == "stream_unavailable")
        #expect(fallback.json?["cause"] == "stalled", "\(fallback.text)")
        #expect(seconds < 6, "the fallback within 6 s of the station going off the air")
        // The beep is 0.4 s of 1 kHz a second: some 0.1 s window after the verdict is at its pitch.
        try await capture.waitForFrames(atFallback + AudioCapture.frames(1.2))
        var best = 0.0
        for step in 0..<11 {
            best = max(best, try Self.pitch(capture, from: atFallback + AudioCapture.frames(0.1 * Double(step)), seconds: 0.1))
        }
        print("station alarm: fallback's highest pitch over 0.1 s windows \(best) /s (beep: 1000)")
        #expect(abs(best - 1000) <= 20, "the 1 kHz fallback tone is at the speaker: \(best)")
        try await harness.command("alarm/dismiss", "")
    }
}
