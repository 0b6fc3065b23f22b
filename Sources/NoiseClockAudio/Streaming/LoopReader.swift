#if canImport(Glibc)
import Glibc
#endif

/// The disk side of a streamed recording: reads the file block by block in an endless loop,
/// crossfades the seam on the fly, converts the rate, applies the gain and hands the result to
/// the ring. The first pass plays the file from its very start; each later pass starts with its
/// last `fade` frames blended into its first (equal power), so the loop is `frames − fade` long
/// and has no click. Owned by the reader thread alone.
final class LoopReader {
    /// The seam crossfade: half a second, or a quarter of a short file.
    static let crossfadeSeconds = 0.5
    /// Source frames per block: 85 ms at 48 kHz, big enough that a FLAC frame decodes in one go.
    static let blockFrames = 4096

    private let file: SoundFile
    private let resampler: Resampler?
    private let fade: Int
    /// Where the loop's body ends and the crossfaded tail begins.
    private let bodyEnd: Int
    private var position = 0
    private let block: UnsafeMutablePointer<Float>
    private let converted: UnsafeMutablePointer<Float>
    private let convertedCapacity: Int
    /// The file's last `fade` frames, read when the loop comes round.
    private var tail: UnsafeMutablePointer<Float>?

    init(file: SoundFile, outputRate: Int) throws(SoundFile.Failure) {
        guard file.frames >= 64 else { throw SoundFile.Failure(description: "file is too short to loop") }
        self.file = file
        if file.sampleRate != outputRate {
            do { resampler = try Resampler(from: file.sampleRate, to: outputRate) } catch { throw SoundFile.Failure(description: error.description) }
        } else {
            resampler = nil
        }
        fade = min(Int(Self.crossfadeSeconds * Double(file.sampleRate)), file.frames / 4)
        bodyEnd = file.frames - fade
        block = .allocate(capacity: Self.blockFrames * 2)
        convertedCapacity = resampler?.outputCapacity(forInput: Self.blockFrames) ?? 0
        converted = .allocate(capacity: max(convertedCapacity, 1) * 2)
    }

    deinit {
        block.deallocate()
        converted.deallocate()
        tail?.deallocate()
    }

    /// Output frames one `next` can yield at most: what the ring must have room for.
    var maxOutputFrames: Int { resampler == nil ? Self.blockFrames : convertedCapacity }

    /// The next block at the output rate, handed to `emit`; false when the file can no longer be
    /// read (truncated, replaced or gone from under us).
    func next(_ emit: (UnsafePointer<Float>, Int) -> Void) -> Bool {
        let count: Int
        if position < bodyEnd {
            count = file.read(into: block, frames: min(Self.blockFrames, bodyEnd - position))
            guard count > 0 else { return false }
        } else {
            guard let done = crossfadeBlock() else { return false }
            count = done
        }
        position += count
        if position == bodyEnd + fade { position = fade }
        guard let resampler else {
            emit(block, count)
            return true
        }
        var offset = 0
        while offset < count {
            let (used, written) = resampler.process(block + 2 * offset, count: count - offset, into: converted, capacity: convertedCapacity)
            if written > 0 { emit(converted, written) }
            if used == 0 && written == 0 { break }
            offset += used
        }
        return true
    }

    /// A block of the seam: the tail (read once per pass) fading out over the head fading in.
    private func crossfadeBlock() -> Int? {
        let offset = position - bodyEnd
        if offset == 0 {
            let buffer = tail ?? .allocate(capacity: fade * 2)
            tail = buffer
            var read = 0
            while read < fade {
                let n = file.read(into: buffer + 2 * read, frames: fade - read)
                guard n > 0 else { return nil }
                read += n
            }
            guard file.seek(to: 0) else { return nil }
        }
        guard let tail else { return nil }
        let count = file.read(into: block, frames: min(Self.blockFrames, fade - offset))
        guard count > 0 else { return nil }
        for i in 0..<count {
            let x = Float(offset + i) / Float(fade) * .pi / 2
            let fadeIn = sinf(x), fadeOut = cosf(x)
            let t = 2 * (offset + i)
            block[2 * i] = block[2 * i] * fadeIn + tail[t] * fadeOut
            block[2 * i + 1] = block[2 * i + 1] * fadeIn + tail[t + 1] * fadeOut
        }
        return count
    }
}
