import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// The wake curve end to end, in the samples the node wrote through ALSA: a short ramp from
    /// `start_volume`, and a pre-alarm sound crossfading into the alarm on the node's own clock.
    /// (The hour-long ramp is measured on the mixer itself: WakeCurveTests.)
    struct WakeCurveIntegrationTests {
        /// Ten seconds of seeded white noise as 16-bit mono WAV: a custom sound of steady level whose
        /// loop seam (head and tail blended) keeps its power, so every window measures the gain.
        static func noiseWAV() -> Data {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return TimingSuite.Audio.AlarmFailsafeTests.wav(seconds: 10) { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(Int64(bitPattern: state) >> 11) / Double(1 << 52) * 0.3
            }
        }

        /// A node with two custom sounds: `tone` (440 Hz) and `hiss` (steady white noise).
        static func harness(_ device: String) async throws -> (AudioNodeHarness, URL) {
            let sounds = try makeTemporaryDirectory(prefix: "sounds")
            try TimingSuite.Audio.AlarmFailsafeTests.wav().write(to: sounds.appendingPathComponent("tone.wav"))
            try Self.noiseWAV().write(to: sounds.appendingPathComponent("hiss.wav"))
            let capture = try AudioCapture(device: device)
            var environment = capture.environment
            environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = sounds.path
            let harness = try await AudioNodeHarness(capture: capture, environment: environment)
            try await harness.waitForAudio("ok")
            return (harness, sounds)
        }

        @Test func rampRisesFromTheStartVolumeAndReachesTheVolumeAtItsEnd() async throws {
            let (harness, sounds) = try await Self.harness("nc_ramp")
            defer { harness.shutdown(); try? FileManager.default.removeItem(at: sounds) }
            let capture = harness.capture
            let added = try await harness.command("alarm/add",
                #"{"time": "03:00", "sound": "hiss", "volume": 80, "start_volume": 40, "ramp_seconds": 3}"#)
            let id = try #require(added.response["result"]?["id"]?.stringValue)
            let ring = try await harness.command("alarm/test", id).mark
            try await capture.waitForFrames(ring + AudioCapture.frames(5))
            try await harness.command("alarm/dismiss", "")

            // The ramp starts where the sound does (the device's buffer delays it a little).
            let samples = try capture.read(ring..<(ring + AudioCapture.frames(5))).left
            let onset = try #require(samples.firstIndex { abs($0) > 0.001 })
            func level(_ from: Double, _ seconds: Double = 0.25) -> Double {
                let start = onset + Int(from * Double(AudioCapture.sampleRate))
                return SignalAnalysis.rms(samples[start..<(start + Int(seconds * Double(AudioCapture.sampleRate)))])
            }
            let plateau = level(3.5, 1)
            let steps = stride(from: 0.0, to: 3.0, by: 0.25).map { level($0) / plateau }
            let first = SignalAnalysis.decibels(level(0, 0.05) / plateau)
            let end = SignalAnalysis.decibels(level(2.95, 0.05) / plateau)
            // start_volume 40 of volume 80: (0.4² / 0.8²) = -12 dB on the square-law curve.
            let expectedStart = SignalAnalysis.decibels(Double(AudioScene.gain(volume: 40) / AudioScene.gain(volume: 80)))
            print("ALSA ramp: start \(first) dB (expected \(expectedStart)), end \(end) dB from the alarm volume; "
                + "steps \(steps.map { (SignalAnalysis.decibels($0) * 10).rounded() / 10 })")
            #expect(abs(first - expectedStart) < 1, "starts at \(first) dB")
            #expect(abs(end) < 1, "ends \(end) dB from the alarm volume")
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }, "not rising: \(steps)")
        }

        @Test func preAlarmSoundRisesThenGivesWayToTheAlarmWithoutAGap() async throws {
            let (harness, sounds) = try await Self.harness("nc_prealarm")
            defer { harness.shutdown(); try? FileManager.default.removeItem(at: sounds) }
            let capture = harness.capture
            let boundary = NodeTime.minute(hour: 5, minute: 30)
            try await harness.node.setClock(to: boundary.addingTimeInterval(-90))
            try await harness.command("alarm/add", """
                {"time": "\(MinuteBoundary.clockTime(boundary))", "sound": "tone", "volume": 60, "start_volume": 30, "ramp_seconds": 2,
                 "pre_alarm_minutes": 1, "pre_alarm_sound": "pink"}
                """)
            // Into the pre-alarm minute: the pink noise starts rising.
            var index = harness.client.messages.count
            try await harness.node.setClock(to: boundary.addingTimeInterval(-61))
            try await harness.client.waitFor("\(harness.root)/alarm/event", timeout: 5, after: index, where: { $0.json?["event"] == "pre_alarm" })
            // Near its end (6 s of steady pre-alarm noise), then the fire and the crossfade.
            index = harness.client.messages.count
            try await harness.node.setClock(to: boundary.addingTimeInterval(-6))
            let mark = capture.frames
            try await harness.client.waitFor("\(harness.root)/alarm/fired", timeout: 12, after: index)
            try await capture.waitForFrames(mark + AudioCapture.frames(11))
            let samples = try capture.read(mark..<(mark + AudioCapture.frames(11))).left

            // Before the fire: pink noise, nearly at the alarm's volume; after it: the tone alone.
            let before = Array(samples[AudioCapture.frames(4)..<AudioCapture.frames(5)])
            let after = Array(samples[AudioCapture.frames(10)..<AudioCapture.frames(11)])
            let toneBefore = SignalAnalysis.bandPower(SignalAnalysis.welch(before), from: 400, to: 480)
            let noiseBefore = SignalAnalysis.bandPower(SignalAnalysis.welch(before), from: 2000, to: 8000)
            let toneAfter = SignalAnalysis.bandPower(SignalAnalysis.welch(after), from: 400, to: 480)
            let noiseAfter = SignalAnalysis.bandPower(SignalAnalysis.welch(after), from: 2000, to: 8000)
            print("pre-alarm → alarm: noise \(SignalAnalysis.decibels((noiseAfter / noiseBefore).squareRoot())) dB, "
                + "tone \(SignalAnalysis.decibels((toneAfter / max(toneBefore, 1e-20)).squareRoot())) dB")
            #expect(noiseBefore > 100 * noiseAfter, "the pink noise gave way")
            #expect(toneAfter > 20 * toneBefore, "the alarm's tone took over")
            // No gap and no click: 20 ms steps no larger than the steady noise's own flutter plus 1 dB,
            // each the largest over an equally long stretch (a longer stretch of noise holds a larger
            // step by chance alone).
            let env = SignalAnalysis.envelope(samples, window: 960)
            let steps = zip(env.dropFirst(), env).map { abs(SignalAnalysis.decibels($0 / $1)) }
            // Windows 50–265 (1–5.3 s): the pre-alarm noise, steady; the fire comes about 6 s in,
            // and 280–495 (5.6–9.9 s) holds the crossfade and the tone's ramp.
            let steady = steps[50..<265].max()!, crossing = steps[280..<495].max()!
            let lowest = env[50..<500].min()!
            print("crossfade through ALSA: largest 20 ms step \(crossing) dB (steady noise \(steady) dB), lowest "
                + "level \(SignalAnalysis.decibels(lowest / env[200])) dB")
            #expect(crossing < steady + 1)
            #expect(lowest > 0.2 * env[200], "the sound dropped out")
        }
    }
}
