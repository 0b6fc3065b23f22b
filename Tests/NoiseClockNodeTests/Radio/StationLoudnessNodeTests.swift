import Foundation
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// A station's loudness is brought near the noises' level (`StationLeveller`), on the real node
/// with real ALSA into the test's capture PCM: two live Icecast stations play the same 440 Hz tone
/// 12 dB apart (FFmpeg's sine, one through `volume=-12dB`); each played as the noise at the same
/// volume arrives at the speaker within 1 dB of the other and within 1.5 dB of the level the
/// noises are calibrated to (−23.4 LUFS, which for a stereo 440 Hz sine, where K-weighting is
/// flat, is an RMS of 0.0518 a channel), times the volume's gain. Stream stage.
@Suite(.enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StationLoudnessNodeTests {
    static let volume = 80
    /// −23.4 LUFS as a stereo sine's RMS a channel: 10^((−23.4 + 0.691) / 10) / 2, square-rooted.
    static let targetRMS = (pow(10, (-23.4 + 0.691) / 10) / 2).squareRoot()

    @Test func twoStations12dBApartPlayAtTheNoisesLevel() async throws {
        let station = try LiveStation()
        defer { station.stop() }
        let mp3 = ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
        try station.startSource(mount: "/loud.mp3", encoder: mp3)
        try station.startSource(mount: "/quiet.mp3", encoder: ["-af", "volume=-12dB"] + mp3)
        let capture = try AudioCapture(device: "nc_station_loudness")
        let harness = try await AudioNodeHarness(capture: capture, environment: capture.environment)
        defer { harness.shutdown() }
        try await harness.waitForAudio("ok")
        for id in ["loud", "quiet"] {
            try await harness.command("station/add", #"{"id": "\#(id)", "name": "\#(id)", "url": "\#(station.url("/\(id).mp3"))"}"#)
            for _ in 0..<60 {
                if await ReadinessService.probeStation(station.url("/\(id).mp3")) == nil { break }
                try await pause(0.25)
            }
        }
        let expected = Self.targetRMS * Double(AudioScene.gain(volume: Self.volume))
        var levels: [String: Double] = [:]
        for id in ["loud", "quiet"] {
            let mark = try await harness.command("noise/set", #"{"playing": true, "sound": "radio:\#(id)", "volume": \#(Self.volume)}"#).mark
            try await capture.waitForFrames(mark + AudioCapture.frames(5))
            let left = try capture.read((mark + AudioCapture.frames(3))..<(mark + AudioCapture.frames(5))).left
            let rms = (left.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(left.count)).squareRoot()
            levels[id] = 20 * log10(rms / expected)
            print("radio:\(id): RMS at the speaker 3–5 s after noise/set \(String(format: "%.4f", rms)), "
                + "\(String(format: "%+.2f", levels[id]!)) dB from the noises' level at volume \(Self.volume) (\(String(format: "%.4f", expected)))")
        }
        let loud = try #require(levels["loud"]), quiet = try #require(levels["quiet"])
        #expect(abs(loud - quiet) < 1, "12 dB apart at the source, within 1 dB at the speaker")
        #expect(abs(loud) < 1.5 && abs(quiet) < 1.5, "at the noises' level")
        try await harness.command("noise/set", "OFF")
    }
}
