import Foundation
import NoiseClockCore
import Testing

/// A finished timer heard through the whole node into a captured ALSA stream: the chime sounds
/// until it is dismissed. No level-over-time measurement: it runs in the parallel stage.
struct TimerChimeCaptureTests {
    @Test func aFinishedTimerChimesUntilDismissed() async throws {
        let harness = try await AudioNodeHarness.started(device: "nc_timer")
        defer { harness.shutdown() }
        let capture = harness.capture

        // A one-minute timer, its end reached by moving the node's clock: the chime sounds.
        let timer = try await harness.command("timer/start", "1").response
        let end = try #require(timer["result"]?["ends_at"]?.stringValue.flatMap(MinuteBoundary.date(iso:)))
        let mark = harness.client.messages.count
        try await harness.node.setClock(to: end.addingTimeInterval(-0.5))
        try await harness.client.waitFor("\(harness.root)/alarm/fired", timeout: 10, after: mark, where: { $0.json?["source"] == "timer" })
        // The chime's first phrase (its four notes, 1.5 s) from where it begins in the capture: the
        // `fired` message can reach the test late on a loaded machine, and the bell's tail after
        // the phrase is much quieter. Searched from the capture's start: nothing sounds before the
        // chime, and a device closed while idle and opened again for it truncates the file (ALSA's
        // file PCM), so a frame count taken before the fire may lie beyond the capture's end (a
        // range trap that ended a fresh clone's whole integration run).
        try await capture.waitForFrames(capture.frames + AudioCapture.frames(2))
        let heard = try capture.read(0..<capture.frames).left
        let onset = heard.firstIndex { abs($0) > 0.01 } ?? 0
        try await capture.waitForFrames(onset + AudioCapture.frames(1.6))
        let dismissed = try await harness.command("alarm/dismiss", "").mark
        try await capture.waitForFrames(dismissed + AudioCapture.frames(1))
        let chime = SignalAnalysis.rms(try capture.read(onset..<(onset + AudioCapture.frames(1.5))).left)
        print("timer chime rms \(chime)")
        #expect(chime > 0.05, "no chime: rms \(chime)")
        let after = try capture.read((dismissed + AudioCapture.frames(0.6))..<(dismissed + AudioCapture.frames(1)))
        #expect((after.left + after.right).allSatisfy { $0 == 0 }, "still sounding after dismiss")
    }
}
