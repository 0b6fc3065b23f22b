#if canImport(Glibc)
import Glibc
#endif

/// The disk side of a streamed recording: reads the file block by block in an endless loop,
/// crossfades the seam, converts the rate and hands the result on (the reader applies the gain
/// and fills the ring). The first pass plays the file from its very start; each later pass
/// starts with its last `fade` frames blended into its first (equal power), so the loop is
/// `frames − fade` long and has no click, and `SeamLimiter` keeps the seam's steps within the
/// steady sound's. Owned by the reader thread alone.
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
    /// The seam, made once a pass when the loop comes round: `fade` frames.
    private var seam: UnsafeMutablePointer<Float>?
    /// The file's first `fade` frames, read to make the seam.
    private var head: UnsafeMutablePointer<Float>?
    /// The next body block is the first after a seam: the limiter lets go after it.
    private var seamJustEnded = false
    private var limiter: SeamLimiter

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
        // The converter's warm-up from silence is well within a tenth of a second.
        limiter = SeamLimiter(outputRate: outputRate, warmUpFrames: outputRate / 10)
    }

    deinit {
        block.deallocate()
        converted.deallocate()
        seam?.deallocate()
        head?.deallocate()
    }

    /// Output frames one `next` can yield at most: what the ring must have room for.
    var maxOutputFrames: Int { resampler == nil ? Self.blockFrames : convertedCapacity }

    /// The next block at the output rate, handed to `emit`; false when the file can no longer be
    /// read (truncated, replaced or gone from under us).
    func next(_ emit: (UnsafePointer<Float>, Int) -> Void) -> Bool {
        let source: UnsafeMutablePointer<Float>
        let count: Int
        let releasesLimiter = seamJustEnded
        if position < bodyEnd {
            count = file.read(into: block, frames: min(Self.blockFrames, bodyEnd - position))
            guard count > 0 else { return false }
            source = block
            seamJustEnded = false
        } else {
            if position == bodyEnd { guard makeSeam() else { return false } }
            guard let seam else { return false }
            let offset = position - bodyEnd
            count = min(Self.blockFrames, fade - offset)
            source = seam + 2 * offset
            limiter.engage()
        }
        position += count
        // After the seam the body goes on from frame `fade`, where reading the head left the file.
        if position == bodyEnd + fade {
            position = fade
            seamJustEnded = true
        }
        guard let resampler else {
            limiter.process(source, count: count)
            emit(source, count)
            if releasesLimiter { limiter.release() }
            return true
        }
        var offset = 0
        while offset < count {
            let (used, written) = resampler.process(source + 2 * offset, count: count - offset, into: converted, capacity: convertedCapacity)
            if written > 0 {
                limiter.process(converted, count: written)
                emit(converted, written)
            }
            if used == 0 && written == 0 { break }
            offset += used
        }
        // The block after the seam carried the converter's delay out: the limit may end.
        if releasesLimiter { limiter.release() }
        return true
    }

    /// Reads the tail (the `fade` frames after the body) and the head (the file's first `fade`),
    /// crossfades them into `seam` and leaves the file at frame `fade`, where the next pass's body
    /// begins.
    private func makeSeam() -> Bool {
        let seam = self.seam ?? .allocate(capacity: fade * 2)
        let head = self.head ?? .allocate(capacity: fade * 2)
        self.seam = seam
        self.head = head
        guard readFully(into: seam, frames: fade), file.seek(to: 0), readFully(into: head, frames: fade) else { return false }
        for i in 0..<fade {
            let x = Float(i) / Float(fade) * .pi / 2
            let fadeIn = sinf(x), fadeOut = cosf(x)
            seam[2 * i] = head[2 * i] * fadeIn + seam[2 * i] * fadeOut
            seam[2 * i + 1] = head[2 * i + 1] * fadeIn + seam[2 * i + 1] * fadeOut
        }
        return true
    }

    private func readFully(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Bool {
        var read = 0
        while read < frames {
            let n = file.read(into: buffer + 2 * read, frames: frames - read)
            guard n > 0 else { return false }
            read += n
        }
        return true
    }
}
