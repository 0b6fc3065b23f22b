import Foundation
import Glibc
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// `audio.sounds_dir` watched on a real node: files added, replaced and removed show on
    /// `~/sounds` within 5 s without a restart; a file broken after start rings the beep when
    /// its alarm fires; noise whose file is deleted while it plays switches to brown and says so.
    struct SoundsDirectoryTests {
        typealias Failsafe = AlarmFailsafeTests

        /// The next `~/sounds` (after `mark`, within 5 s) whose noise list passes `predicate`.
        static func sounds(_ harness: AudioNodeHarness, after mark: Int,
            _ predicate: @escaping @Sendable ([JSONValue]) -> Bool) async throws -> [JSONValue] {
            let message = try await harness.client.waitFor("\(harness.root)/sounds", timeout: 5, after: mark, where: {
                predicate($0.json?["noise"]?.arrayValue ?? [])
            })
            return message.json?["noise"]?.arrayValue ?? []
        }

        @Test func addRemoveReplaceShowLiveAndABrokenFileRingsTheBeep() async throws {
            let sounds = try makeTemporaryDirectory(prefix: "sounds")
            defer { try? FileManager.default.removeItem(at: sounds) }
            let song = sounds.appendingPathComponent("song.wav")
            try Failsafe.wav().write(to: song)
            let harness = try await AudioNodeHarness.started(device: "nc_sounds_watch", environment: ["NOISECLOCK_AUDIO_SOUNDS_DIR": sounds.path])
            defer { harness.shutdown() }
            let capture = harness.capture

            // Added: listed with its length and format.
            var mark = harness.client.messages.count
            try Failsafe.wav(seconds: 3).write(to: sounds.appendingPathComponent("Rain Night.wav"))
            let added = try await Self.sounds(harness, after: mark) { $0.contains { $0["id"] == "rain_night" } }
            let rain = try #require(added.first { $0["id"] == "rain_night" })
            #expect(rain["seconds"] == 3 || rain["seconds"] == 3.0, "\(rain)")
            #expect(rain["format"]?.stringValue?.hasPrefix("WAV") == true, "\(rain)")

            // Replaced (written beside, renamed over, as editors and `cp` to a temp name do).
            mark = harness.client.messages.count
            let temporary = sounds.appendingPathComponent(".song.tmp")
            try Failsafe.wav(seconds: 2).write(to: temporary)
            rename(temporary.path, song.path)
            _ = try await Self.sounds(harness, after: mark) { list in
                list.contains { $0["id"] == "song" && ($0["seconds"] == 2 || $0["seconds"] == 2.0) }
            }

            // Removed while it plays as noise: brown instead, and `~/noise` says why.
            try await harness.command("noise/set", #"{"playing": true, "sound": "rain_night", "volume": 50}"#)
            mark = harness.client.messages.count
            unlink(sounds.appendingPathComponent("Rain Night.wav").path)
            _ = try await Self.sounds(harness, after: mark) { !$0.contains { $0["id"] == "rain_night" } }
            let noise = try await harness.client.waitFor("\(harness.root)/noise", timeout: 5, after: mark, where: { $0.json?["sound"] == "brown" })
            #expect(noise.json?["playing"] == true)
            #expect(noise.json?["error"]?.stringValue?.contains("rain_night") == true, "\(noise.text)")
            try await harness.command("noise/set", "OFF")

            // Broken after start, no restart: the alarm's own sound cannot be made when it
            // fires, so the beep rings and the failsafe says so.
            let alarm = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "song", "volume": 80, "ramp_seconds": 0}"#)
            let id = try #require(alarm.response["result"]?["id"]?.stringValue)
            try Data(repeating: 0x5A, count: 4096).write(to: song)
            let (fired, verdict, ringMark) = try await Failsafe.ring(harness, id)
            #expect(verdict.json?["event"] == "sounding")
            #expect(verdict.json?["fallback"] == true, "\(verdict.text)")
            #expect(verdict.at.timeIntervalSince(fired.at) < 2)
            try await capture.waitForFrames(ringMark + AudioCapture.frames(0.5))
            #expect(try Failsafe.peak(capture, ringMark, ringMark + AudioCapture.frames(0.5)) > 0.1, "the fallback beep is audible")
        }
    }
}
