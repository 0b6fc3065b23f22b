import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// A station that sends something else than it claims (an HTML page as `audio/aac`, a corrupt
/// stream) must end as `undecodable`, never crash the node nor hang the player: each decoder is
/// fed seeded random bytes, and random bytes behind a valid-looking start (an ADTS header, an
/// Ogg page's capture pattern, FLAC's signature), in 1 KB pieces as a connection delivers them,
/// and must say it cannot decode them within its bound.
struct StreamDecoderGarbageTests {
    /// SplitMix64: a seeded source, so a failure repeats.
    struct Bytes {
        var random: SplitMix64

        init(state: UInt64) { random = SplitMix64(seed: state) }

        mutating func next(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
    }

    /// Feeds `head` then random bytes until the decoder refuses them (or `limit` bytes): how many it took.
    static func refusal(_ decoder: any StreamDecoder, head: [UInt8], seed: UInt64, limit: Int = 4 << 20) -> Int? {
        var source = Bytes(state: seed)
        var fed = 0
        var stream = head + source.next(1024 - head.count)
        while fed < limit {
            let ok = stream.withUnsafeBytes { decoder.feed($0, frames: { _, _ in }, title: { _ in }) }
            fed += stream.count
            if !ok { return fed }
            stream = source.next(1024)
        }
        return nil
    }

    @Test(arguments: [StreamFormat.aac, .ogg, .flac], [UInt64(1), 29, 2026])
    func garbageIsUndecodable(format: StreamFormat, seed: UInt64) throws {
        let library = try #require(try? StreamLibrary.shared.get())
        let head: [UInt8] = switch format {
        case .aac: [0xFF, 0xF1, 0x50, 0x80, 0x2E, 0x7F, 0xFC]  // ADTS: AAC LC, 44.1 kHz, stereo, 369 bytes
        case .ogg: Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 20)
        case .flac, .mp3: Array("fLaC".utf8) + [0x80, 0, 0, 34] + [UInt8](repeating: 0, count: 34)
        }
        for start in [[], head] {
            let decoder = try #require(format.decoder(library: library))
            let taken = Self.refusal(decoder, head: start, seed: seed)
            #expect(taken != nil, "\(format) took 4 MB of random bytes (seed \(seed), head \(start.count) bytes) without refusing them")
        }
    }
}
