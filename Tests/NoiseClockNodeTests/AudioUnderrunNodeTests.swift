import Foundation
import Glibc
import NoiseClockCore
import Testing

/// Underruns counted and shown (mqtt-api v1.4 "Audio underruns"; issue 40): the real node plays
/// brown noise into the test's capture PCM (a sink that never blocks, paced by the engine), is
/// stopped with SIGSTOP for longer than its ALSA buffer and continued, so its next write comes
/// after what was queued had all played: `~/audio` then counts it, and `noiseclock doctor` names it.
@Suite struct AudioUnderrunNodeTests {
    @Test func aStalledNodeCountsItsUnderrunOnAudioAndTheDoctorNamesIt() async throws {
        let capture = try AudioCapture(device: "nc_underrun")
        let harness = try await AudioNodeHarness(capture: capture)
        defer { harness.shutdown() }
        let playing = try await harness.waitForAudio("ok")
        #expect(playing.json?["underruns"]?.intValue != nil, "~/audio carries underruns: \(playing.text)")
        try await harness.command("noise/set", #"{"playing": true, "sound": "brown", "volume": 40}"#)
        // The noise is reaching the sink before the stall (so the stall interrupts a playing stream).
        let started = capture.frames
        for _ in 0..<100 where capture.frames < started + AudioCapture.sampleRate / 2 { try await pause(0.05) }
        let before = harness.client.messages.last { $0.topic == "\(harness.root)/audio" }?.json?["underruns"]?.intValue ?? 0
        let mark = harness.client.messages.count
        // 1.5 s stopped: five times the engine's 300 ms buffer (AlsaPCM's latency).
        harness.node.signal(SIGSTOP)
        try await pause(1.5)
        harness.node.signal(SIGCONT)
        // A changed count is published at most every 10 s.
        let counted = try await harness.client.waitFor("\(harness.root)/audio", timeout: 15, after: mark) {
            ($0.json?["underruns"]?.intValue ?? 0) > before
        }
        #expect(counted.json?["status"] == "ok", "\(counted.text)")
        let count = try #require(counted.json?["underruns"]?.intValue)
        let run = try DoctorTests.doctor(harness.node, capture.environment)
        #expect(run.status("underruns") == "warning", "\(run.verdict("underruns"))")
        #expect(run.verdict("underruns").contains("ran dry"), "\(run.verdict("underruns"))")
        let named = (1...count + 20).contains { run.verdict("underruns").contains("ran dry \($0) time") }
        #expect(named, "the doctor names the count (\(count) or more): \(run.verdict("underruns"))")
    }
}
