import Foundation
import Glibc
import Testing
@testable import NoiseClockAudio

/// HE-AAC stations: v1 (SBR) at 64 kb/s and v2 (SBR + parametric stereo) at 32 kb/s, each a real
/// Icecast 2 mount fed with a stream FDK AAC made (Tests/Fixtures/he-aac: Debian has no HE-AAC
/// encoder), looped as it is by FFmpeg. Decoded by the player's own path: the codec named as the
/// probe names it, SBR's doubled rate (48 kHz from a 24 kHz core), stereo (v2's from one coded
/// channel), the tone, and the ICY title. `make stream-test`.
extension StreamFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/he-aac").path

    /// The tone's frequency from the first channel past 0.3 s: the median spacing of rising zero
    /// crossings (placed between samples by linear interpolation). A median, because each loop of
    /// a fixture starts with the encoder's ~0.1 s of near-silence (ADTS cannot say to skip it).
    static func frequency(_ heard: Heard) -> Double {
        guard heard.rate > 0, heard.samples.count > heard.rate / 2 else { return -1 }
        let samples = heard.samples[(heard.rate * 3 / 10)...]
        var crossings: [Double] = []
        for index in samples.indices.dropFirst() where samples[index - 1] < 0 && samples[index] >= 0 {
            let before = Double(samples[index - 1]), after = Double(samples[index])
            crossings.append(Double(index - 1) + before / (before - after))
        }
        let spacings = zip(crossings, crossings.dropFirst()).map { $1 - $0 }.sorted()
        guard !spacings.isEmpty else { return -1 }
        return Double(heard.rate) / spacings[spacings.count / 2]
    }

    @Test(arguments: [
        ("he-aac-v1-880hz-64k.aac", "he-aac", 880.0),
        ("he-aac-v2-990hz-32k.aac", "he-aac-v2", 990.0),
    ])
    func anHEAACStationPlaysItsToneAndShowsItsTitle(file: String, codec: String, tone: Double) throws {
        _ = try #require(Self.library)
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startLoop(mount: "/he.aac", file: Self.fixtures + "/" + file, contentType: "audio/aacp", format: "adts")
        let url = server.url("/he.aac")
        let setTitle = server.adminURL + "/metadata?mount=/he.aac&mode=updinfo&song=Miles%20Davis%20-%20So%20What"
        let titled: ([String?]) -> Bool = { $0.contains(Self.title) }
        // The title can be set once the mount is up (its first audio heard): then until heard, 8 s.
        var heard = Self.listenOnceOnAir(url, titled: { _ in true })
        let start = ContinuousClock.now
        repeat {
            _ = StreamConnectionTests.read(setTitle)
            heard = Self.listen(url, titled: titled)
        } while !titled(heard.titles) && ContinuousClock.now - start < .seconds(8)
        let probe = try? StationProbe(url: url, userAgent: "NoiseClock/test", allowsLocalAddresses: true).run().get()
        let frequency = Self.frequency(heard)
        print("\(file): \(heard.codec) \(heard.rate) Hz \(heard.channels) ch, \(String(format: "%.2f", frequency)) Hz, titles \(heard.titles); "
            + "probe \(probe?.json.serialized ?? "failed")")
        #expect(heard.codec == codec && heard.rate == 48_000 && heard.channels == 2)
        #expect(abs(frequency - tone) <= 2, "the encoder's \(tone) Hz tone, decoded through SBR")
        #expect(heard.titles.contains(Self.title), "\(heard.titles)")
        #expect(probe?.codec == codec)
    }
}
