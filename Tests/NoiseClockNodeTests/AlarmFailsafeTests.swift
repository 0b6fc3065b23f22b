import Foundation
import Glibc
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// The failsafe on a real node, with real ALSA and real files broken for real: `sounding` only
    /// once samples reached the device (a `file` PCM of the test's own), the built-in beep when
    /// the alarm's custom file is corrupt or gone, `failed` at once when the device cannot be
    /// opened at fire time, and `sounding` when it comes back while the alarm rings.
    struct AlarmFailsafeTests {
        /// A 16-bit mono WAV at 48 kHz of `sample` (−1…1 by frame index); by default one second of
        /// a 440 Hz tone: a custom sound the node can decode.
        static func wav(seconds: Int = 1, _ sample: (Int) -> Double = { sin(2 * Double.pi * 440 * Double($0) / 48_000) * 0.37 }) -> Data {
            let rate = 48_000
            var samples = Data()
            for i in 0..<(rate * seconds) {
                var value = Int16(max(-1, min(1, sample(i))) * 32_000).littleEndian
                withUnsafeBytes(of: &value) { samples.append(contentsOf: $0) }
            }
            var data = Data("RIFF".utf8)
            func le32(_ v: Int) { var x = UInt32(v).littleEndian; withUnsafeBytes(of: &x) { data.append(contentsOf: $0) } }
            func le16(_ v: Int) { var x = UInt16(v).littleEndian; withUnsafeBytes(of: &x) { data.append(contentsOf: $0) } }
            le32(36 + samples.count)
            data.append(contentsOf: Data("WAVEfmt ".utf8))
            le32(16); le16(1); le16(1); le32(rate); le32(rate * 2); le16(2); le16(16)
            data.append(contentsOf: Data("data".utf8))
            le32(samples.count)
            data.append(samples)
            return data
        }

        /// The next `sounding` or `failed` event after `mark`.
        static func verdict(_ harness: AudioNodeHarness, after mark: Int, timeout: Double = 5) async throws -> TestClient.Received {
            try await harness.client.waitFor("\(harness.root)/alarm/event", timeout: timeout, after: mark, where: {
                ["sounding", "failed"].contains($0.json?["event"]?.stringValue ?? "")
            })
        }

        /// Rings the alarm with `alarm/test` and returns its `fired` and the verdict that follows.
        static func ring(_ harness: AudioNodeHarness, _ id: String) async throws -> (fired: TestClient.Received, verdict: TestClient.Received,
            mark: Int) {
            let index = harness.client.messages.count
            let mark = try await harness.command("alarm/test", id).mark
            let fired = try await harness.client.waitFor("\(harness.root)/alarm/fired", after: index)
            let verdict = try await verdict(harness, after: index)
            return (fired, verdict, mark)
        }

        /// The peak of the capture between two frame counts.
        static func peak(_ capture: AudioCapture, _ from: Int, _ to: Int) throws -> Float {
            try capture.read(from..<to).left.map(abs).max() ?? 0
        }

        @Test func corruptOrMissingCustomFileRingsTheBeepAndSaysSo() async throws {
            let sounds = try makeTemporaryDirectory(prefix: "sounds")
            defer { try? FileManager.default.removeItem(at: sounds) }
            let song = sounds.appendingPathComponent("song.wav")
            try Self.wav().write(to: song)
            let harness = try await AudioNodeHarness.started(device: "nc_failsafe", environment: ["NOISECLOCK_AUDIO_SOUNDS_DIR": sounds.path])
            defer { harness.shutdown() }
            let capture = harness.capture
            let added = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "song", "volume": 80, "ramp_seconds": 0}"#)
            let id = try #require(added.response["result"]?["id"]?.stringValue)

            // Intact: its own sound, confirmed within 2 s of the fire.
            var (fired, verdict, mark) = try await Self.ring(harness, id)
            #expect(verdict.json?["event"] == "sounding")
            #expect(verdict.json?["fallback"] == false)
            let latency = verdict.at.timeIntervalSince(fired.at)
            print("fire → sounding: \(Int(latency * 1000)) ms")
            #expect(latency >= 0 && latency < 2)
            // The samples are really there (custom files are loudness-normalised; -40 dBFS is well above silence).
            try await capture.waitForFrames(mark + AudioCapture.frames(0.5))
            let own = try Self.peak(capture, mark, mark + AudioCapture.frames(0.5))
            print("custom sound peak: \(own)")
            #expect(own > 0.01)
            try await harness.command("alarm/dismiss", "")

            // Corrupt the file, restart: the node cannot decode it, so the alarm beeps.
            try Data(repeating: 0x5A, count: 4096).write(to: song)
            try await harness.restart()
            (fired, verdict, mark) = try await Self.ring(harness, id)
            #expect(verdict.json?["event"] == "sounding")
            #expect(verdict.json?["fallback"] == true, "\(verdict.text)")
            #expect(verdict.json?["id"] == .string(id))
            #expect(verdict.at.timeIntervalSince(fired.at) < 2)
            try await capture.waitForFrames(mark + AudioCapture.frames(0.5))
            #expect(try Self.peak(capture, mark, mark + AudioCapture.frames(0.5)) > 0.1, "the fallback beep is audible")
            try await harness.command("alarm/dismiss", "")

            // Delete it, restart: the same.
            try FileManager.default.removeItem(at: song)
            try await harness.restart()
            (_, verdict, _) = try await Self.ring(harness, id)
            #expect(verdict.json?["event"] == "sounding")
            #expect(verdict.json?["fallback"] == true, "\(verdict.text)")
        }

        @Test func deviceMissingAtFireFailsAtOnceThenSoundsWhenItReturns() async throws {
            // The speaker's PCM is not defined yet: opening it fails inside ALSA.
            let capture = try AudioCapture(device: "nc_late_speaker", defined: false)
            let harness = try await AudioNodeHarness(capture: capture)
            defer { harness.shutdown() }
            try await harness.waitForAudio("unavailable")
            let boundary = NodeTime.minute(hour: 6, minute: 30)
            try await harness.node.setClock(to: boundary.addingTimeInterval(-30))
            try await harness.command("alarm/add", #"{"time": "\#(MinuteBoundary.clockTime(boundary))", "sound": "chime", "ramp_seconds": 0}"#)

            let mark = harness.client.messages.count
            try await harness.node.setClock(to: boundary.addingTimeInterval(-1))
            let fired = try await harness.client.waitFor("\(harness.root)/alarm/fired", timeout: 10, after: mark)
            let failed = try await Self.verdict(harness, after: mark)
            #expect(failed.json?["event"] == "failed")
            #expect(failed.json?["reason"] == "audio_unavailable")
            #expect(failed.json?["error"]?.stringValue?.isEmpty == false, "\(failed.text)")
            let latency = failed.at.timeIntervalSince(fired.at)
            print("fire → failed: \(Int(latency * 1000)) ms")
            #expect(latency >= 0 && latency < 2)

            // The speaker is plugged in while the alarm rings: the node finds it and says so.
            let back = harness.client.messages.count
            try capture.define()
            let sounding = try await Self.verdict(harness, after: back, timeout: 10)
            #expect(sounding.json?["event"] == "sounding")
            #expect(sounding.json?["fallback"] == false)
            try await capture.waitForFrames(AudioCapture.frames(0.5))
            #expect(try Self.peak(capture, 0, capture.frames) > 0.05, "the chime reached the device")
        }
    }
}
