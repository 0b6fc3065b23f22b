import Foundation
import NoiseClockCore
import Testing

/// A mix through the whole node into a captured ALSA stream: both layers are audible, each where
/// its spectrum lies; deleting it while it plays falls back to its first layer. Spectral slopes
/// only, no levels or times: it runs in the parallel stage, not in TimingSuite.
struct MixCaptureTests {
    typealias Measure = SignalAnalysis

    static func power(_ capture: AudioCapture, _ mark: Int, _ from: Double, _ to: Double) throws -> [Double] {
        let channels = try capture.read((mark + AudioCapture.frames(from))..<(mark + AudioCapture.frames(to)))
        return zip(Measure.welch(channels.left), Measure.welch(channels.right)).map { ($0 + $1) / 2 }
    }

    @Test func bothLayersOfAMixAreAudibleAndDeletingItKeepsTheFirst() async throws {
        let harness = try await AudioNodeHarness.started(device: "nc_mix")
        defer { harness.shutdown() }
        let capture = harness.capture

        // Brown falls 6 dB per octave, white is flat: at equal loudness brown rules the lows and
        // white the highs, so each layer shows in its own band.
        try await harness.command("mix/set",
            #"{"id": "brown_white", "name": "Brown and white", "layers": [{"sound": "brown", "volume": 100}, {"sound": "white", "volume": 100}]}"#)
        let sounds = try await harness.client.waitFor("\(harness.root)/sounds",
            where: { $0.json?["noise"]?.arrayValue?.contains { $0["id"] == "brown_white" } == true })
        #expect(sounds.json?["noise"]?.arrayValue?.last?["category"] == "mix")
        let mixed = try await harness.command("noise/set", #"{"playing": true, "sound": "brown_white", "volume": 60}"#).mark
        try await capture.waitForFrames(mixed + AudioCapture.frames(4))
        let deleted = try await harness.command("mix/delete", "brown_white").mark
        try await capture.waitForFrames(deleted + AudioCapture.frames(4))

        let mix = try Self.power(capture, mixed, 1.5, 4)
        let low = Measure.slope(mix, from: 60, to: 250), high = Measure.slope(mix, from: 4000, to: 16_000)
        print("mix brown+white captured: slope 60–250 Hz \(low) dB/oct, 4–16 kHz \(high) dB/oct")
        #expect(low < -4, "no brown in the lows: \(low) dB/oct")
        #expect(high > -2, "no white in the highs: \(high) dB/oct")

        // After the delete only brown (the first layer) is left: its slope holds in the highs too.
        let alone = try Self.power(capture, deleted, 2.5, 4)
        let after = Measure.slope(alone, from: 4000, to: 16_000)
        print("after mix/delete: slope 4–16 kHz \(after) dB/oct")
        #expect(after < -4, "white still plays after the delete: \(after) dB/oct")
        let noise = harness.client.messages(on: "\(harness.root)/noise").last?.json
        #expect(noise?["sound"] == "brown" && noise?["playing"] == true)
    }
}
