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
        let station = try IcecastServer()
        defer { station.stop() }
        let mp3 = ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
        try station.startSource(mount: "/loud.mp3", encoder: mp3)
        try station.startSource(mount: "/quiet.mp3", encoder: ["-af", "volume=-12dB"] + mp3)
        let harness = try await AudioNodeHarness.started(device: "nc_station_loudness")
        defer { harness.shutdown() }
        let capture = harness.capture
        for id in ["loud", "quiet"] {
            try await harness.command("station/add", #"{"id": "\#(id)", "name": "\#(id)", "url": "\#(station.url("/\(id).mp3"))"}"#)
            for _ in 0..<60 {
                if await ReadinessService.probeStation(station.url("/\(id).mp3"), allowsLocalAddresses: true) == nil { break }
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

    /// `noiseclock render URL`: the quiet station rendered offline by the same player comes out
    /// as its 440 Hz tone at the noises' level from its start, as at the speaker; a closed port
    /// ends it with `refused`, exit 1, and leaves no file.
    @Test func aStationRendersOfflineAsItPlays() async throws {
        let station = try IcecastServer()
        defer { station.stop() }
        try station.startSource(mount: "/quiet.mp3", encoder: ["-af", "volume=-12dB", "-c:a", "libmp3lame", "-b:a", "128k",
                                                                "-content_type", "audio/mpeg", "-f", "mp3"])
        for _ in 0..<60 {
            if await ReadinessService.probeStation(station.url("/quiet.mp3"), allowsLocalAddresses: true) == nil { break }
            try await pause(0.25)
        }
        let directory = try makeTemporaryDirectory(prefix: "render")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("station.wav").path
        let log = directory.appendingPathComponent("log").path
        let render = try ChildProcess(path: NodeProcess.binary.path, arguments: [
            "render", station.url("/quiet.mp3"), "--seconds", "4", "--volume", "\(Self.volume)", "--output", wav,
        ], environment: [:], logPath: log)
        #expect(render.wait(timeout: 20) == 0, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wav)))
        #expect(bytes.count == 44 + 4 * 48_000 * 4)
        // The left channel from 2 s on (past the leveller's first seconds and the fade-in).
        let left = stride(from: 44 + 4 * 96_000, to: bytes.count, by: 4).map {
            Double(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32768
        }
        let expected = Self.targetRMS * Double(AudioScene.gain(volume: Self.volume))
        func level(_ samples: [Double]) -> Double { 20 * log10((samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)).squareRoot() / expected) }
        let crossings = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count / 2
        // The start too (0.1–0.6 s, past the 5 ms fade-in): levelled from its first sample.
        let start = stride(from: 44 + 4 * 4_800, to: 44 + 4 * 28_800, by: 4).map {
            Double(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32768
        }
        print("render radio (12 dB under): \(crossings) rising crossings a second, \(String(format: "%+.2f", level(left))) dB from the noises' "
            + "level from 2 s, \(String(format: "%+.2f", level(start))) dB over 0.1–0.6 s")
        #expect(abs(crossings - 440) <= 3)
        #expect(abs(level(left)) < 1.5)
        #expect(abs(level(start)) < 2, "the start levelled too")

        let refusedLog = directory.appendingPathComponent("refused").path
        let refused = try ChildProcess(path: NodeProcess.binary.path, arguments: [
            "render", "http://127.0.0.1:\(try freeLoopbackPort())/none.mp3", "--seconds", "1", "--output", wav,
        ], environment: [:], logPath: refusedLog)
        #expect(refused.wait(timeout: 20) == 1)
        #expect(try String(contentsOfFile: refusedLog, encoding: .utf8).contains("cannot be heard (refused)"))
        #expect(!FileManager.default.fileExists(atPath: wav), "no half-written file left behind")
    }
}
