import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Audio {
    /// `~/speak/time` on a real node playing noise into a capture PCM: the speech heard is eSpeak
    /// NG's (its 10 ms loudness envelope against `espeak-ng -w` of the response's `text`, same
    /// voice and rate), the noise is ducked under it and back at its level within 1 s after.
    struct SpeechCaptureTests {
        /// RMS in 10 ms windows.
        static func envelope(_ samples: [Float], sampleRate: Int) -> [Double] {
            let step = sampleRate / 100
            return stride(from: 0, to: samples.count - step + 1, by: step).map { start in
                (samples[start..<start + step].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(step)).squareRoot()
            }
        }

        /// `espeak-ng -w`'s samples of `text` (its WAV is 22 050 Hz mono 16-bit with a 44-byte header).
        static func reference(_ text: String, voice: String) throws -> [Float] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-ref-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
            process.arguments = ["-v", voice, "-s", "160", "-w", file.path, text]
            try process.run()
            process.waitUntilExit()
            let data = try Data(contentsOf: file)
            return data.dropFirst(44).withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
        }

        @Test(arguments: [("en", "It's"), ("ko", "요일")])
        func speechIsESpeakNGsAndTheNoiseIsDuckedAndBack(locale: String, expected: String) async throws {
            let capture = try AudioCapture(device: "nc_speech_\(locale)")
            var environment = capture.environment
            environment["NOISECLOCK_LOCALE"] = locale
            let harness = try await AudioNodeHarness(capture: capture, environment: environment)
            defer { harness.shutdown() }
            try await harness.waitForAudio("ok")
            let noise = try await harness.command("noise/set", #"{"playing": true, "sound": "white", "volume": 40}"#).mark
            try await capture.waitForFrames(noise + AudioCapture.frames(3))

            let (response, mark) = try await harness.command("speak/time", "")
            let text = try #require(response["result"]?["text"]?.stringValue)
            let seconds = try #require(response["result"]?["seconds"]?.doubleValue)
            #expect(text.contains(expected), "\(text)")
            try await capture.waitForFrames(mark + AudioCapture.frames(seconds + 2.5))

            // The capture from 0.5 s before the answer (the engine had the speech before it) on.
            let start = max(0, mark - AudioCapture.frames(0.5))
            let heard = try capture.read(start..<mark + AudioCapture.frames(seconds + 2.5)).left
            let ours = Self.envelope(heard, sampleRate: AudioCapture.sampleRate)
            let theirs = Self.envelope(try Self.reference(text, voice: locale), sampleRate: 22050)
            let spoken = Array(theirs.prefix(Int(seconds * 100)))
            // The speech starts somewhere in the first 1.5 s of the capture read: the best lag.
            let (lag, r) = (0..<150).map { lag in (lag, Statistics.correlation(ours[lag...], spoken[...])) }.max { $0.1 < $1.1 }!
            print("speech \(locale): \"\(text)\", \(seconds) s, envelope correlation \(r) at lag \(lag * 10) ms")
            #expect(r >= 0.9, "envelope correlation \(r) (\(locale))")

            // The noise: its level before, under the speech (ducked), and 1 s after the speech's end.
            func rms(_ from: Double, _ length: Double) throws -> Double {
                let begin = start + Int(from * Double(AudioCapture.sampleRate))
                let samples = try capture.read(begin..<begin + AudioCapture.frames(length)).left
                return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
            }
            let before = try rms(-1.5, 1)
            let speechEnd = Double(lag) / 100 + seconds
            let after = try rms(speechEnd + 1, 0.5)
            let level = 20 * log10(after / before)
            print("noise before \(before), 1 s after the speech \(after) (\(level) dB)")
            #expect(abs(level) <= 1.5, "the noise 1 s after the speech is \(level) dB from before it")
        }
    }
}
