import Foundation
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// The formats past MP3 on the real node, at the speaker: a noise on an Ogg Opus station (Icecast,
/// the title in its OpusTags), then on an AAC station (Icecast, 44.1 kHz resampled to 48 kHz, an
/// ICY title), then on an HLS station (live AAC/MPEG-TS segments, `#EXTINF` titles, over plain
/// HTTP). Each time the capture PCM holds that station's tone (440, 550, 660 Hz) (its share of the captured
/// energy, by correlation with a sine and cosine of its frequency) and `~/noise` names the title.
/// `make stream-test`.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StationFormatNodeTests {
    static let title = "Miles Davis - So What"

    /// The share of the left channel's energy over `seconds` from `from` that is a 440 Hz sine (1: all
    /// of it): the squared correlation with the best-fitting 440 Hz sinusoid.
    static func toneShare(_ capture: AudioCapture, _ frequency: Double, from: Int, seconds: Double) throws -> Double {
        let samples = try capture.read(from..<(from + AudioCapture.frames(seconds))).left
        var sine = 0.0, cosine = 0.0, energy = 0.0
        for (index, sample) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / Double(AudioCapture.sampleRate)
            sine += Double(sample) * sin(phase)
            cosine += Double(sample) * cos(phase)
            energy += Double(sample) * Double(sample)
        }
        guard energy > 0 else { return 0 }
        return 2 * (sine * sine + cosine * cosine) / (Double(samples.count) * energy)
    }

    @Test func opusAACAndHLSStationsPlayAtTheSpeakerWithTheirTitles() async throws {
        let station = try IcecastServer()
        defer { station.stop() }
        let tags = ["-metadata", "artist=Miles Davis", "-metadata", "title=So What"]
        // A tone of its own for each, so the capture tells which station it holds.
        try station.startSource(mount: "/opus.ogg", encoder: ["-c:a", "libopus", "-b:a", "64k"] + tags + ["-content_type", "audio/ogg", "-f", "ogg"],
                                rate: 48_000, frequency: 440)
        try station.startSource(mount: "/aac", encoder: ["-c:a", "aac", "-b:a", "64k", "-content_type", "audio/aac", "-f", "adts"], frequency: 550)
        let hls = try station.startHLS(frequency: 660)
        let harness = try await AudioNodeHarness.started(device: "nc_station_formats")
        defer { harness.shutdown() }
        let capture = harness.capture
        let stations = [("opus", station.url("/opus.ogg"), 440.0), ("aac", station.url("/aac"), 550), ("hls", hls, 660)]
        for (id, url, _) in stations {
            try await harness.command("station/add", #"{"id": "\#(id)", "name": "\#(id)", "url": "\#(url)"}"#)
        }
        // On the air: the node's own probe hears each (the mount or a first segment is there), all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (_, url, _) in stations {
                group.addTask {
                    for _ in 0..<40 {
                        if await ReadinessService.probeStation(url, allowsLocalAddresses: true) == nil { return }
                        try await pause(0.2)
                    }
                }
            }
            try await group.waitForAll()
        }
        try station.setTitle(mount: "/aac", song: Self.title)
        for (id, _, frequency) in stations {
            let index = harness.client.messages.count
            let mark = try await harness.command("noise/set", #"{"playing": true, "sound": "radio:\#(id)", "volume": 80}"#).mark
            let titled = try await harness.client.waitFor("\(harness.root)/noise", timeout: 10, after: index) {
                $0.json?["title"]?.stringValue == Self.title
            }
            try await capture.waitForFrames(mark + AudioCapture.frames(2.5))
            let share = try Self.toneShare(capture, frequency, from: mark + AudioCapture.frames(1.5), seconds: 1)
            print("radio:\(id): the \(Int(frequency)) Hz tone's share of the capture 1.5–2.5 s after noise/set \(share); ~/noise \(titled.text)")
            #expect(share > 0.95, "radio:\(id): the station's tone is at the speaker (\(share))")
            #expect(titled.json?["station"]?.stringValue == id)
        }
        try await harness.command("noise/set", "OFF")
    }
}
