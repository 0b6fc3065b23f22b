import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// Sound through the whole node: MQTT commands in, real ALSA out into a `file` PCM of the
    /// test's own ALSA configuration, samples read back and measured.
    struct AudioIntegrationTests {
        typealias Measure = SignalAnalysis

        /// Both channels of `seconds` (from, to) after the frame count `mark`.
        static func segment(_ capture: AudioCapture, _ mark: Int, _ from: Double, _ to: Double) throws -> (left: [Float], right: [Float]) {
            try capture.read((mark + AudioCapture.frames(from))..<(mark + AudioCapture.frames(to)))
        }

        /// Spectral slope (dB/octave, 100 Hz–10 kHz) and RMS of a stereo segment.
        static func colour(_ channels: (left: [Float], right: [Float])) -> (slope: Double, rms: Double) {
            let left = Measure.welch(channels.left), right = Measure.welch(channels.right)
            let power = zip(left, right).map { ($0 + $1) / 2 }
            let rms = ((pow(Measure.rms(channels.left), 2) + pow(Measure.rms(channels.right), 2)) / 2).squareRoot()
            return (Measure.slope(power, from: 100, to: 10_000), rms)
        }

        /// The largest change between consecutive 40 ms RMS windows, and how long the level took to
        /// cross from 10% to 90% of the way between `from` and `to`. (In 10 ms windows white noise's
        /// own level wanders by ±5%, so two neighbours could differ by 10% with no click at all; a
        /// click or a jump still moves a 40 ms window by far more than 10%.)
        static func transition(_ x: [Float], from: Double, to: Double) -> (maxStep: Double, seconds: Double) {
            let envelope = Measure.envelope(x, window: 1920)
            let steps = zip(envelope, envelope.dropFirst()).map { abs($1 - $0) }
            let progress = envelope.map { ($0 - from) / (to - from) }
            let start = progress.firstIndex { $0 > 0.1 } ?? 0
            let end = progress.firstIndex { $0 > 0.9 } ?? 0
            return (steps.max() ?? 0, Double(end - start) * 0.04)
        }

        @Test func playsTheChosenColourAtTheChosenLevelChangesSmoothlyAndFadesOut() async throws {
            let harness = try await AudioNodeHarness.started(device: "nc_colour")
            defer { harness.shutdown() }
            let capture = harness.capture

            // Each sound plays for a while of captured audio (not of the test's clock, which a busy
            // machine can run ahead of the audio thread).
            let brown = try await harness.command("noise/set", #"{"playing": true, "sound": "brown", "volume": 30}"#).mark
            try await capture.waitForFrames(brown + AudioCapture.frames(3))
            let white = try await harness.command("noise/set", #"{"sound": "white", "volume": 50}"#).mark
            try await capture.waitForFrames(white + AudioCapture.frames(3))
            let loud = try await harness.command("noise/volume/set", "100").mark
            try await capture.waitForFrames(loud + AudioCapture.frames(2.5))
            let off = try await harness.command("noise/set", "OFF").mark
            try await capture.waitForFrames(off + AudioCapture.frames(2.8))

            // Steady parts, after the fade-in or crossfade (≤ 0.5 s at these volumes).
            let brownColour = Self.colour(try Self.segment(capture, brown, 1, 3))
            let whiteColour = Self.colour(try Self.segment(capture, white, 1, 3))
            print("brown@30: slope \(brownColour.slope) dB/oct, rms \(brownColour.rms); white@50: slope \(whiteColour.slope), rms \(whiteColour.rms)")
            #expect(abs(brownColour.slope + 6) <= 1, "brown slope \(brownColour.slope)")
            #expect(abs(whiteColour.slope) <= 1, "white slope \(whiteColour.slope)")
            let brownLevel = Measure.decibels(brownColour.rms / AudioNodeHarness.expectedRMS("brown", volume: 30))
            let whiteLevel = Measure.decibels(whiteColour.rms / AudioNodeHarness.expectedRMS("white", volume: 50))
            #expect(abs(brownLevel) < 1, "brown at 30 is \(brownLevel) dB off")
            #expect(abs(whiteLevel) < 1, "white at 50 is \(whiteLevel) dB off")

            // Volume 50 → 100: a ramp, not a jump.
            let quiet = AudioNodeHarness.expectedRMS("white", volume: 50), full = AudioNodeHarness.expectedRMS("white", volume: 100)
            let rise = Self.transition(try Self.segment(capture, loud, -0.3, 2.3).left, from: quiet, to: full)
            print("volume 50→100: max 40 ms step \(rise.maxStep), 10–90% in \(rise.seconds) s")
            #expect(rise.maxStep < 0.1 * full, "volume step \(rise.maxStep)")
            #expect(rise.seconds >= 0.5, "volume rose in \(rise.seconds) s")
            let loudLevel = Measure.decibels(Measure.rms(try Self.segment(capture, loud, 2.0, 2.5).left) / full)
            #expect(abs(loudLevel) < 1, "white at 100 is \(loudLevel) dB off")

            // OFF: fades out without a click, then digital silence.
            let fall = Self.transition(try Self.segment(capture, off, -0.3, 2.8).left, from: full, to: 0)
            print("OFF: max 40 ms step \(fall.maxStep), 90–10% in \(fall.seconds) s")
            #expect(fall.maxStep < 0.1 * full, "fade step \(fall.maxStep)")
            #expect(fall.seconds >= 0.5, "faded in \(fall.seconds) s")
            let tail = try Self.segment(capture, off, 2.4, 2.8)
            #expect((tail.left + tail.right).allSatisfy { $0 == 0 }, "not silent 2.4 s after OFF")
        }

        @Test func captureGrowsAtRealTimeSpeed() async throws {
            let harness = try await AudioNodeHarness.started(device: "nc_speed")
            defer { harness.shutdown() }
            let capture = harness.capture
            try await harness.command("noise/set", #"{"playing": true, "sound": "brown", "volume": 40}"#)
            try await pause(0.5)
            let (t1, f1) = (Date(), capture.frames)
            try await pause(5)
            let (t2, f2) = (Date(), capture.frames)
            let speed = Double(f2 - f1) / Double(AudioCapture.sampleRate) / t2.timeIntervalSince(t1)
            print("capture speed: \(speed)× real time")
            #expect(abs(speed - 1) <= 0.05, "wrote \(speed)× real time")
        }

        @Test func anAlarmDucksTheNoiseAndItsRampRises() async throws {
            let harness = try await AudioNodeHarness.started(device: "nc_alarm")
            defer { harness.shutdown() }
            let capture = harness.capture
            try await harness.command("noise/set", #"{"playing": true, "sound": "white", "volume": 50}"#)
            let (added, addMark) = try await harness.command(
                "alarm/add", #"{"time": "03:00", "label": "Ramp", "sound": "siren", "volume": 80, "ramp_seconds": 3}"#
            )
            let id = try #require(added["result"]?["id"]?.stringValue)
            try await capture.waitForFrames(addMark + AudioCapture.frames(1.5))
            let ring = try await harness.command("alarm/test", id).mark
            try await capture.waitForFrames(ring + AudioCapture.frames(4))
            let dismissed = try await harness.command("alarm/dismiss", "").mark
            try await capture.waitForFrames(dismissed + AudioCapture.frames(2))

            // The noise, measured at 6–12 kHz where the siren (600–2200 Hz) has nothing.
            func noisePower(_ mark: Int, _ from: Double, _ to: Double) throws -> Double {
                Measure.bandPower(Measure.welch(try Self.segment(capture, mark, from, to).left), from: 6000, to: 12_000)
            }
            let before = try noisePower(ring, -1, 0)
            let ducked = try noisePower(ring, 1, 3.8)
            let restored = try noisePower(dismissed, 1, 2)
            let duck = 10 * log10(ducked / before), back = 10 * log10(restored / before)
            print("duck \(duck) dB, after dismiss \(back) dB")
            #expect(duck < -15 && duck > -25, "noise ducked by \(duck) dB (expected -20)")
            #expect(abs(back) < 1.5, "noise after dismiss \(back) dB from before")

            // The siren's level in half-second steps across ramp_seconds: rising, then steady.
            func sirenLevel(_ from: Double) throws -> Double {
                Measure.bandPower(Measure.welch(try Self.segment(capture, ring, from, from + 0.5).left, size: 2048), from: 500, to: 2500).squareRoot()
            }
            let steps = try stride(from: 0.0, to: 3.0, by: 0.5).map { try sirenLevel($0) }
            let plateau = try sirenLevel(3.2)
            let relative = steps.map { $0 / plateau }
            print("ramp (relative to the plateau, 0.5 s steps): \(relative.map { ($0 * 100).rounded() / 100 })")
            #expect(zip(relative, relative.dropFirst()).allSatisfy { $0 < $1 }, "ramp not rising: \(relative)")
            // Linear in amplitude over 3 s: the step at 1.0–1.5 s averages 0.42 of the full level.
            #expect(abs(relative[2] - 0.42) < 0.12, "mid-ramp level \(relative[2])")
            #expect(relative[0] < 0.2 && relative[5] > 0.8, "ramp ends \(relative)")
        }

        @Test func aMissingDeviceIsUnavailableAndRecoversWhenItAppears() async throws {
            let capture = try AudioCapture(device: "nc_late", defined: false)
            let harness = try await AudioNodeHarness(capture: capture)
            defer { harness.shutdown() }
            let unavailable = try await harness.waitForAudio("unavailable")
            #expect(unavailable.json?["device"] == "nc_late")
            #expect(unavailable.json?["error"]?.stringValue?.contains("nc_late") == true, "\(unavailable.text)")
            try await harness.command("noise/set", #"{"playing": true, "sound": "white", "volume": 50}"#)
            #expect(harness.node.isRunning)

            let mark = harness.client.messages.count
            let plugged = Date()
            try capture.define()
            try await harness.waitForAudio("ok", timeout: 10, after: mark)
            print("device back after \(Date().timeIntervalSince(plugged)) s")
            // A newcomer (a dashboard opened later) sees the recovered status, retained.
            let late = try await TestClient(port: harness.broker.port, subscriptions: ["\(harness.root)/audio"])
            defer { late.shutdown() }
            let retained = try await late.waitFor("\(harness.root)/audio")
            #expect(retained.retain && retained.json?["status"] == "ok", "\(retained.text)")
            // What should be playing resumes: white at volume 50 once the fade-in is done.
            try await capture.waitForFrames(AudioCapture.frames(2))
            let level = Measure.decibels(
                Measure.rms(try capture.read(AudioCapture.frames(1)..<AudioCapture.frames(2)).left)
                    / AudioNodeHarness.expectedRMS("white", volume: 50))
            #expect(abs(level) < 1, "resumed noise is \(level) dB off")
        }
    }
}
