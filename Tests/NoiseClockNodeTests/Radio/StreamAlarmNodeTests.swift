import Foundation
import Glibc
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// Issue 29's safety core on the real node (real mosquitto, real ALSA into the test's `file` PCM):
/// an alarm on a station that cannot be heard rings the fallback tone, audible at the speaker
/// within `stream.timeout_seconds` + 1 s of the fire, and `sounding` says `fallback: true`,
/// `reason: "stream_unavailable"` and a cause. Run by `make stream-test` (scripts/stream-tests.sh,
/// its own stage: the stream tests will start Icecast and FFmpeg), not by `make test`.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StreamAlarmNodeTests {
    typealias Failsafe = TimingSuite.Audio.AlarmFailsafeTests

    @Test func anUnreachableStationRingsTheFallbackToneAtTheSpeakerAndSaysWhy() async throws {
        let harness = try await AudioNodeHarness.started(device: "nc_stream_alarm")
        defer { harness.shutdown() }
        let capture = harness.capture
        let port = try freeLoopbackPort()  // claimed, nobody listens: connecting is refused
        let station = try await harness.command("station/add", #"{"id": "gone", "name": "Gone", "url": "http://127.0.0.1:\#(port)/live"}"#)
        #expect(station.response["ok"] == true, "\(station.response)")
        let added = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "radio:gone", "volume": 80, "ramp_seconds": 0}"#)
        let id = try #require(added.response["result"]?["id"]?.stringValue)

        let (fired, verdict, mark) = try await Failsafe.ring(harness, id)
        let seconds = verdict.at.timeIntervalSince(fired.at)
        print("stream alarm: fire → sounding (fallback) \(Int(seconds * 1000)) ms, cause \(verdict.json?["cause"] ?? .null)")
        #expect(verdict.json?["event"] == "sounding", "\(verdict.text)")
        #expect(verdict.json?["fallback"] == true)
        #expect(verdict.json?["reason"] == "stream_unavailable")
        #expect(verdict.json?["cause"]?.stringValue.map { StreamFallback.normalised($0) == $0 } == true)
        #expect(seconds >= 0 && seconds < Double(StreamSettings().timeoutSeconds) + 1)
        // The tone is really at the speaker, at once after the verdict.
        try await capture.waitForFrames(mark + AudioCapture.frames(0.5))
        #expect(try Failsafe.peak(capture, mark, mark + AudioCapture.frames(0.5)) > 0.1, "the fallback tone is audible")
        // Deleting the station the alarm rings is refused while the alarm has it.
        let index = harness.client.messages.count
        harness.client.publish("\(harness.root)/station/delete", "gone")
        let refused = try await harness.client.waitFor("\(harness.root)/response", after: index, where: {
            $0.json?["command"]?.stringValue == "station/delete"
        })
        #expect(refused.json?["error"]?["code"] == "in_use", "\(refused.text)")
        try await harness.command("alarm/dismiss", "")
    }
}

extension StreamAlarmNodeTests {
    /// `~/station/test` on the real node: the probe runs on its own thread and the answer comes back
    /// on `~/response` with the request id; an unreachable station is `stream_unavailable`, `refused`.
    @Test func stationTestAnswersWithTheCause() async throws {
        let capture = try AudioCapture(device: "nc_stream_test")
        let harness = try await AudioNodeHarness(capture: capture, environment: capture.environment)
        defer { harness.shutdown() }
        let port = try freeLoopbackPort()  // claimed, nobody listens: connecting is refused
        let index = harness.client.messages.count
        harness.client.publish("\(harness.root)/station/test", #"{"url": "http://127.0.0.1:\#(port)/live", "request_id": "t1"}"#)
        let answer = try await harness.client.waitFor("\(harness.root)/response", after: index, where: {
            $0.json?["command"]?.stringValue == "station/test"
        })
        print("station/test: \(answer.text)")
        #expect(answer.json?["request_id"] == "t1")
        #expect(answer.json?["error"]?["code"] == "stream_unavailable" && answer.json?["error"]?["cause"] == "refused")
    }
}

extension StreamAlarmNodeTests {
    /// The readiness service's probe of an alarm's station: on its own thread, the cause back.
    @Test func theReadinessProbeGivesTheCause() async throws {
        let port = try freeLoopbackPort()  // claimed, nobody listens: connecting is refused
        #expect(await ReadinessService.probeStation("http://127.0.0.1:\(port)/live", allowsLocalAddresses: true) == "refused")
        #expect(await ReadinessService.probeStation("http://station.invalid/live", allowsLocalAddresses: true) == "dns")
    }
}

/// Whether the stream stage runs (scripts/stream-tests.sh sets NOISECLOCK_STREAM_TESTS=1).
enum StreamStage {
    static let enabled = ProcessInfo.processInfo.environment["NOISECLOCK_STREAM_TESTS"] == "1"
}
