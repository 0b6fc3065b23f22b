import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// Renders one sound offline with the node's own mixer and DSP, to a WAV file or as raw
/// S16LE stereo (stdout for `-`). Time is virtual: it runs as fast as the CPU allows.
public struct OfflineRenderer {
    public enum Format: Sendable { case wav, raw }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public var library: SoundLibrary
    /// Frames per write: big enough that system calls cost nothing, small enough to stay in cache.
    public var blockFrames = 4096

    /// The dither's seed: nil draws one from the system.
    public var ditherSeed: UInt64?

    public init(library: SoundLibrary, ditherSeed: UInt64? = nil) {
        self.library = library
        self.ditherSeed = ditherSeed
    }

    /// The scene that plays `sound` alone at `volume`: as the noise bed, or as an alarm tone.
    public func scene(for sound: String, volume: Int) throws(Failure) -> AudioScene {
        if library.catalog.hasNoise(sound) { return AudioScene(noise: .init(sound: sound, volume: volume)) }
        if library.catalog.hasAlarm(sound) {
            return AudioScene(alarm: .init(sound: sound, volume: volume, since: Instant(milliseconds: 0), rampSeconds: 0))
        }
        throw Failure(description: "unknown sound \"\(sound)\"; `noiseclock sounds` lists them")
    }

    public func render(sound: String, seconds: Double, volume: Int, format: Format, to descriptor: Int32) throws(Failure) {
        let scene = try scene(for: sound, volume: volume)
        let mixer = Mixer(library: library, waitsForDisk: true)
        let start = Instant(milliseconds: 0)
        mixer.settle(scene, at: start)
        try render(seconds: seconds, format: format, to: descriptor) { floats, done, count throws(Failure) in
            let now = start.adding(milliseconds: Int64(done) * 1000 / Int64(library.sampleRate))
            mixer.render(scene, at: now, frames: count, into: floats)
        }
    }

    /// A station's stream (`noiseclock render URL`) as the node plays it as the noise: its player,
    /// its decoders and levelling, the volume's gain. Offline: the renderer waits for the station
    /// (a fast server is rendered faster than real time, `Benchmarks/radio-soak.sh`), its player
    /// reconnects as the node's does, and a station that gives nothing for 5 s ends the render
    /// with its cause.
    public func render(stationURL url: String, seconds: Double, volume: Int, userAgent: String, format: Format,
                       to descriptor: Int32) throws(Failure) {
        // The owner's own command (`noiseclock render URL`): any address it names, this host's too.
        let source = StationSource(url: url, outputRate: library.sampleRate, userAgent: userAgent, waitsForData: true,
                                   allowsLocalAddresses: true) { _ in }
        let gain = AudioScene.gain(volume: volume)
        try render(seconds: seconds, format: format, to: descriptor) { floats, _, count throws(Failure) in
            source.render(into: floats, frames: count)
            if source.starved { throw Failure(description: "the station cannot be heard (\(source.failure ?? "no_audio")): \(url)") }
            for index in 0..<(2 * count) { floats[index] *= gain }
        }
    }

    /// The header, then `fill`'s blocks (given the frames done so far and the block's length) as
    /// 16-bit PCM with the node's dither.
    private func render(seconds: Double, format: Format, to descriptor: Int32,
                        fill: (UnsafeMutablePointer<Float>, Int, Int) throws(Failure) -> Void) throws(Failure) {
        let totalFrames = Int((seconds * Double(library.sampleRate)).rounded())
        guard totalFrames >= 0 else { throw Failure(description: "seconds must not be negative") }
        if format == .wav {
            guard totalFrames * 4 < Int(UInt32.max) - 44 else { throw Failure(description: "too long for a WAV file; use raw output") }
            try write(Self.wavHeader(frames: totalFrames, sampleRate: library.sampleRate), to: descriptor)
        }
        var conversion = PCMConversion(seed: ditherSeed)
        let floats = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * 2)
        let pcm = UnsafeMutablePointer<Int16>.allocate(capacity: blockFrames * 2)
        defer {
            floats.deallocate()
            pcm.deallocate()
        }
        var done = 0
        while done < totalFrames {
            let count = min(blockFrames, totalFrames - done)
            try fill(floats, done, count)
            conversion.toS16(floats, pcm, count: count * 2)
            try write(UnsafeRawBufferPointer(start: pcm, count: count * 4), to: descriptor)
            done += count
        }
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
        let error = bytes.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
        if error != 0 { throw Failure(description: "write failed: \(String(cString: strerror(error)))") }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(Failure) {
        let error = Self.writeAll(bytes, to: descriptor)
        if error != 0 { throw Failure(description: "write failed: \(String(cString: strerror(error)))") }
    }

    /// Writes everything, retrying short writes; returns 0 or the errno.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// A canonical 44-byte PCM WAV header for 16-bit stereo.
    static func wavHeader(frames: Int, sampleRate: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let dataBytes = frames * 4
        return Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le32(16) + le16(1) + le16(2) + le32(sampleRate) + le32(sampleRate * 4) + le16(4) + le16(16)
            + Array("data".utf8) + le32(dataBytes)
    }
}
