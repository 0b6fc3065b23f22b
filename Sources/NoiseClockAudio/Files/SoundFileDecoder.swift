import CSndFile
#if canImport(Glibc)
import Glibc
#endif

/// Decodes an audio file (anything libsndfile reads: WAV, FLAC, Ogg/Vorbis/Opus, MP3) into a
/// loopable `SoundClip` at the output rate.
public enum SoundFileDecoder {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Longer recordings are cut: five minutes of 48 kHz stereo is already 58 MB in 16 bits.
    public static let maxSeconds = 300
    /// The seam crossfade: half a second, or a quarter of a short file.
    public static let crossfadeSeconds = 0.5

    public static func decode(path: String, sampleRate: Int) throws(Failure) -> SoundClip {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw Failure(description: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channels = Int(info.channels)
        guard channels > 0, info.samplerate > 0, info.frames > 0 else { throw Failure(description: "no audio in file") }
        let frames = min(Int(info.frames), maxSeconds * Int(info.samplerate))
        var interleaved = [Float](repeating: 0, count: frames * channels)
        let read = interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) }
        guard read > 0 else { throw Failure(description: "could not read samples") }
        var stereo = toStereo(interleaved, channels: channels, frames: Int(read))
        if Int(info.samplerate) != sampleRate {
            stereo = resample(stereo, from: Int(info.samplerate), to: sampleRate)
        }
        guard stereo.count >= 2 * 64 else { throw Failure(description: "file is too short to loop") }
        let looped = crossfadeSeam(stereo, sampleRate: sampleRate)
        let loudness = AWeighting.rms(looped, sampleRate: sampleRate)
        guard loudness > 1e-5 else { throw Failure(description: "file is silent") }
        let samples = looped.map { Int16(min(max($0 * 32767, -32768), 32767)) }
        // The same A-weighted loudness as the built-in noises, unless that would push the
        // file's peaks past −1 dBFS (or boost near-silence by more than 24 dB).
        let peak = looped.reduce(Float(0)) { max($0, abs($1)) }
        return SoundClip(samples: samples, gain: min(SoundLevel.noiseLoudness / loudness, 0.89 / peak, 16))
    }

    /// Mono is doubled; of more channels the first two are kept.
    static func toStereo(_ input: [Float], channels: Int, frames: Int) -> [Float] {
        var out = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            out[2 * i] = input[i * channels]
            out[2 * i + 1] = input[i * channels + (channels > 1 ? 1 : 0)]
        }
        return out
    }

    /// Linear interpolation: plenty for ambient recordings.
    static func resample(_ input: [Float], from source: Int, to target: Int) -> [Float] {
        let inFrames = input.count / 2
        let outFrames = Int(Int64(inFrames) * Int64(target) / Int64(source))
        var out = [Float](repeating: 0, count: outFrames * 2)
        let ratio = Double(source) / Double(target)
        for i in 0..<outFrames {
            let position = Double(i) * ratio
            let j = min(Int(position), inFrames - 1)
            let k = min(j + 1, inFrames - 1)
            let t = Float(position - Double(j))
            out[2 * i] = input[2 * j] + (input[2 * k] - input[2 * j]) * t
            out[2 * i + 1] = input[2 * j + 1] + (input[2 * k + 1] - input[2 * j + 1]) * t
        }
        return out
    }

    /// Blends the file's tail into its head with an equal-power crossfade and drops the tail:
    /// played in a loop, the end now runs continuously into the beginning.
    static func crossfadeSeam(_ input: [Float], sampleRate: Int) -> [Float] {
        let frames = input.count / 2
        let fade = min(Int(crossfadeSeconds * Double(sampleRate)), frames / 4)
        let length = frames - fade
        var out = Array(input[0..<(length * 2)])
        guard fade > 0 else { return out }
        for i in 0..<fade {
            let x = Float(i) / Float(fade) * .pi / 2
            let fadeIn = sinf(x), fadeOut = cosf(x)
            for channel in 0..<2 {
                out[2 * i + channel] = input[2 * i + channel] * fadeIn + input[2 * (length + i) + channel] * fadeOut
            }
        }
        return out
    }
}
