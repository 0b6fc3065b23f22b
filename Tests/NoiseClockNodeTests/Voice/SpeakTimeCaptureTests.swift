import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// Alarm `speak_time` on a real node, captured through ALSA: when the alarm starts sounding the
    /// time and the label are heard over it (eSpeak NG's speech: its 10 ms loudness envelope
    /// against `espeak-ng -w` of the expected text), and again when it rings after a snooze.
    /// The node's clock is moved to just before each ring, so the text is known exactly.
    struct SpeakTimeCaptureTests {
        typealias Speech = SpeechCaptureTests

        /// The first frame from `from` on where sound begins after at least 100 ms of silence (the
        /// ring's first sample, tone or voice; not the tail of the sound before it). The ring starts
        /// anywhere within a 10 ms window (where the device is playing when it is written over the
        /// queue), so the window holding its first, ramping samples may be quieter than the loud
        /// mark: it counts as the start when the next one is loud.
        static func onset(_ capture: AudioCapture, from: Int, within seconds: Double) throws -> Int? {
            let envelope = Speech.envelope(try capture.read(from..<from + AudioCapture.frames(seconds)).left, sampleRate: AudioCapture.sampleRate)
            var quiet = 0
            for (index, level) in envelope.enumerated() {
                if level > 0.004, quiet >= 10 { return from + index * AudioCapture.frames(0.01) }
                if level > 0.004, index >= 11, envelope[index - 1] < 0.004, envelope[(index - 11)..<(index - 1)].allSatisfy({ $0 < 0.0005 }) {
                    return from + (index - 1) * AudioCapture.frames(0.01)
                }
                quiet = level < 0.0005 ? quiet + 1 : 0
            }
            return nil
        }

        /// Waits for the ring that follows `mark`, then checks the speech over it: returns the
        /// speech's start after the alarm's first sample (seconds) and the envelope correlation.
        static func heardOverTheRing(
            _ harness: AudioNodeHarness, text: String, mark: Int, after index: Int
        ) async throws -> (latency: Double, r: Double) {
            let capture = harness.capture
            try await harness.client.waitFor("\(harness.root)/alarm", after: index) { $0.json?["state"] == "ringing" }
            let reference = try Speech.reference(text, voice: "en")
            let seconds = Double(reference.count) / 22050
            // The fire is 0.5 s after the mark (a device idle for 5 s is closed: then the capture resumes with the ring).
            var start: Int?
            for waited in stride(from: 1.0, through: 3, by: 0.5) where start == nil {
                try await capture.waitForFrames(mark + AudioCapture.frames(waited))
                start = try onset(capture, from: mark, within: waited)
            }
            let ring = try #require(start, "nothing heard within 3 s of the clock's move")
            // The speech is looked for in the ring's first 0.5 s (a later start would not correlate).
            try await capture.waitForFrames(ring + AudioCapture.frames(0.5 + seconds))
            let heard = try capture.read(ring..<ring + AudioCapture.frames(0.5 + seconds)).left
            let ours = Speech.envelope(heard, sampleRate: AudioCapture.sampleRate)
            let spoken = Array(Speech.envelope(reference, sampleRate: 22050))
            let (lag, r) = (0..<50).map { lag in (lag, Statistics.correlation(ours[lag...], spoken[...])) }.max { $0.1 < $1.1 }!
            return (Double(lag) / 100, r)
        }

        @Test func theTimeAndLabelAreSaidOverTheRingAndAgainAfterASnooze() async throws {
            let sounds = try makeTemporaryDirectory(prefix: "sounds")
            defer { try? FileManager.default.removeItem(at: sounds) }
            // A steady tone: its level does not move the speech's envelope, only the duck does.
            try AlarmFailsafeTests.wav(seconds: 2).write(to: sounds.appendingPathComponent("tone.wav"))
            let harness = try await AudioNodeHarness.started(device: "nc_speak_time", environment: ["NOISECLOCK_AUDIO_SOUNDS_DIR": sounds.path])
            defer { harness.shutdown() }
            let capture = harness.capture
            let ring = NodeTime.minute(hour: 6, minute: 45)
            let day = String(ISO8601DateFormatter().string(from: ring).prefix(10))
            try await harness.command("style/set", #"{"use_24_hour": false}"#)
            try await harness.command("alarm/add", #"""
                {"id": "work", "time": "06:45", "date": "\#(day)", "label": "Work", "speak_time": true, "sound": "tone",
                 "volume": 50, "ramp_seconds": 0, "snooze_minutes": 5}
                """#)

            // The capture's mark is taken before the clock moves: taken after, it could fall after
            // the ring's first sample when moving the clock took longer than 0.5 s (a cold first run).
            var index = harness.client.messages.count
            var mark = capture.frames
            try await harness.node.setClock(to: ring.addingTimeInterval(-0.5))
            let first = try await Self.heardOverTheRing(harness, text: "It's 6:45 AM. Work", mark: mark, after: index)
            print("speak_time: speech starts \(Int(first.latency * 1000)) ms after the alarm's first sample, envelope r = \(first.r)")
            #expect(first.r >= 0.9, "envelope correlation \(first.r)")

            // Snoozed: it rings again at snooze_until, and says the time again.
            index = harness.client.messages.count
            try await harness.command("alarm/snooze", "")
            let state = try await harness.client.waitFor("\(harness.root)/alarm", after: index) { $0.json?["state"] == "snoozed" }
            let until = try #require(state.json?["snooze_until"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) })
            let minute = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: until).minute!
            index = harness.client.messages.count
            mark = capture.frames
            try await harness.node.setClock(to: until.addingTimeInterval(-0.5))
            let text = "It's 6:\(minute < 10 ? "0" : "")\(minute) AM. Work"
            let second = try await Self.heardOverTheRing(harness, text: text, mark: mark, after: index)
            print("after the snooze: speech starts \(Int(second.latency * 1000)) ms after the ring, envelope r = \(second.r)")
            #expect(second.r >= 0.9, "envelope correlation \(second.r) after the snooze")
            try await harness.command("alarm/dismiss", "")
        }
    }
}
