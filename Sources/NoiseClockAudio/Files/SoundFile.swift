import CSndFile
#if canImport(Glibc)
import Glibc
#endif

/// An open audio file (anything libsndfile reads), read as interleaved stereo floats in blocks:
/// mono is doubled, of more channels the first two are kept. One thread uses it at a time.
///
/// Opening never blocks and never trusts the header: the path is opened with `O_NONBLOCK` and the
/// descriptor itself must be a regular file (a FIFO swapped in after a directory scan's `stat`
/// would otherwise hold the opener in `open` until a writer came), and the header's rate,
/// channels and length must be within `SoundFormatBounds` before anything is sized by them.
final class SoundFile {
    struct Failure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    let path: String
    let frames: Int
    let sampleRate: Int
    let channels: Int
    /// The container and encoding as libsndfile names them ("FLAC", "Ogg Vorbis", ...).
    let format: String
    private let handle: OpaquePointer
    /// Ours, not libsndfile's: closed after it in `deinit`.
    private let descriptor: Int32
    /// The file's own interleaving, when it is not already stereo.
    private var scratch: [Float] = []

    init(path: String) throws(Failure) {
        SoundFileCalls.opening()
        let descriptor = try Self.openRegularFile(path)
        var info = SF_INFO()
        guard let handle = sf_open_fd(descriptor, Int32(SFM_READ), &info, 0) else {
            let message = String(cString: sf_strerror(nil))
            close(descriptor)
            throw Failure(description: message)
        }
        guard info.channels > 0, info.samplerate > 0, info.frames > 0 else {
            sf_close(handle)
            close(descriptor)
            throw Failure(description: "no audio in file")
        }
        if let problem = SoundFormatBounds.problem(sampleRate: Int(info.samplerate), channels: Int(info.channels), frames: Int(info.frames)) {
            sf_close(handle)
            close(descriptor)
            throw Failure(description: problem)
        }
        self.path = path
        self.handle = handle
        self.descriptor = descriptor
        frames = Int(info.frames)
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        format = Self.formatName(info.format)
    }

    /// `path` opened for reading without blocking, checked on the descriptor to be a regular
    /// file (so no later swap of the name matters), then made blocking again for libsndfile.
    private static func openRegularFile(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw Failure(description: "not a regular file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    deinit {
        SoundFileCalls.noteIfAudioThread()
        sf_close(handle)
        close(descriptor)
    }

    var seconds: Double { Double(frames) / Double(sampleRate) }

    /// Reads up to `count` frames at the current position; returns how many (0 at the end or on
    /// an error: the file truncated or replaced under us).
    func read(into out: UnsafeMutablePointer<Float>, frames count: Int) -> Int {
        SoundFileCalls.noteIfAudioThread()
        if channels == 2 { return max(0, Int(sf_readf_float(handle, out, sf_count_t(count)))) }
        if scratch.count < count * channels { scratch = [Float](repeating: 0, count: count * channels) }
        let read = scratch.withUnsafeMutableBufferPointer { max(0, Int(sf_readf_float(handle, $0.baseAddress, sf_count_t(count)))) }
        let second = channels > 1 ? 1 : 0
        for i in 0..<read {
            out[2 &* i] = scratch[i &* channels]
            out[2 &* i &+ 1] = scratch[i &* channels &+ second]
        }
        return read
    }

    /// Moves the read position to `frame`; false if the file cannot seek there.
    @discardableResult
    func seek(to frame: Int) -> Bool {
        SoundFileCalls.noteIfAudioThread()
        return sf_seek(handle, sf_count_t(frame), SEEK_SET) == sf_count_t(frame)
    }

    static func formatName(_ format: Int32) -> String {
        var info = SF_FORMAT_INFO()
        info.format = format & Int32(SF_FORMAT_TYPEMASK)
        var container = "audio"
        if sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let name = info.name {
            container = String(cString: name)
        }
        var sub = SF_FORMAT_INFO()
        sub.format = format & Int32(SF_FORMAT_SUBMASK)
        if sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &sub, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let name = sub.name {
            return container + " (" + String(cString: name) + ")"
        }
        return container
    }
}
