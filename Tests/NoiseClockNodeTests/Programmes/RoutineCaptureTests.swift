import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// A routine heard through the whole node into a captured ALSA stream: its noise rises over
    /// its fade-in and falls over its fade-out to silence (levels at given times: TimingSuite).
    struct RoutineCaptureTests {
        typealias Measure = SignalAnalysis

        static func rms(_ capture: AudioCapture, _ mark: Int, _ from: Double, _ to: Double) throws -> Double {
            Measure.rms(try capture.read((mark + AudioCapture.frames(from))..<(mark + AudioCapture.frames(to))).left)
        }

        @Test func aRoutineFadesInAndOut() async throws {
            let harness = try await AudioNodeHarness.started(device: "nc_routine")
            defer { harness.shutdown() }
            let capture = harness.capture

            // White at 60 over a 3 s fade-in: the fade is linear in gain, so the level is a quarter
            // of full after 0.75 s and half after 1.5 s (slower than the mixer's own ramp, which
            // would take 0.7 s to this gain).
            try await harness.command("routine/add", #"{"id": "r", "start": "03:00", "duration_minutes": 60, "sound": "white", "volume": 60, "#
                + #""fade_in_seconds": 3, "fade_out_seconds": 2}"#)
            let started = try await harness.command("routine/start", "r").mark
            try await capture.waitForFrames(started + AudioCapture.frames(4.2))
            let stopped = try await harness.command("routine/stop", "").mark
            try await capture.waitForFrames(stopped + AudioCapture.frames(2.8))

            let full = AudioNodeHarness.expectedRMS("white", volume: 60)
            let quarter = try Self.rms(capture, started, 0.65, 0.85) / full, half = try Self.rms(capture, started, 1.4, 1.6) / full
            let top = try Self.rms(capture, started, 3.3, 4.1) / full
            print("routine fade-in: \(quarter) at 0.75 s, \(half) at 1.5 s, \(top) at 3.3–4.1 s of full")
            #expect(abs(quarter - 0.25) < 0.1, "level at 0.75 s: \(quarter) of full")
            #expect(abs(half - 0.5) < 0.1, "level at 1.5 s: \(half) of full")
            #expect(abs(Measure.decibels(top)) < 1, "level after the fade-in: \(Measure.decibels(top)) dB")
            let falling = try Self.rms(capture, stopped, 0.9, 1.1) / full
            print("routine fade-out: \(falling) at 1 s of 2")
            #expect(abs(falling - 0.5) < 0.12, "level 1 s into the fade-out: \(falling)")
            let tail = try capture.read((stopped + AudioCapture.frames(2.4))..<(stopped + AudioCapture.frames(2.8)))
            #expect((tail.left + tail.right).allSatisfy { $0 == 0 }, "not silent after the fade-out")
            let ended = harness.client.messages(on: "\(harness.root)/routine/event").last?.json
            #expect(ended?["event"] == "ended")
        }
    }
}
