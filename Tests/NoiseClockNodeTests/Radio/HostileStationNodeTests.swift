import Foundation
import Glibc
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// Issue 37's crash loop, on the real node (real mosquitto, real ALSA into the test's file PCM):
/// an HLS station whose media sequence overflows (2^63-1, two segments) on an alarm 2 h ahead.
/// Before the playlist's numbers were bounded, the readiness probe trapped and the node died
/// within seconds, and again at every start, so no alarm could ring. Now the check says the
/// station is `undecodable`, and the node runs on through two restarts. `make stream-test`.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct HostileStationNodeTests {
    @Test func aNodeWithAnOverflowingHLSStationOnAnAlarmStartsAndKeepsRunning() async throws {
        let server = try HostileStreamServer()
        defer { server.stop() }
        let capture = try AudioCapture(device: "nc_hostile_hls")
        let harness = try await AudioNodeHarness(capture: capture, environment: capture.environment)
        defer { harness.shutdown() }
        try await harness.node.setClock(to: NodeTime.minute(hour: 6, minute: 0))
        try await harness.command("station/add", #"{"id": "hostile", "name": "Hostile", "url": "\#(server.url("/seq-overflow.m3u8"))"}"#)
        try await harness.command("alarm/add", #"{"time": "08:00", "sound": "radio:hostile", "volume": 80}"#)
        for start in 0..<3 {
            if start > 0 { try await harness.restart() }
            let checked = try await harness.command("alarm/check", "")
            let problems = checked.response["result"]?["problems"]?.arrayValue ?? []
            print("start \(start): readiness problems \(problems.compactMap { $0["message"]?.stringValue })")
            #expect(problems.contains { $0["code"] == "stream_unreachable" && ($0["message"]?.stringValue ?? "").contains("undecodable") },
                    "\(problems)")
            #expect(harness.node.isRunning, "the node runs on (start \(start))")
        }
        #expect(server.requests("/seq-overflow.m3u8") >= 3, "each start probed the station")
    }
}
