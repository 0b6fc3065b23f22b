import CStream

/// AAC (LC, HE-AAC v1 and v2) in ADTS frames, as Icecast/Shoutcast `audio/aac(p)` stations and
/// HLS segments carry it, decoded by libfaad2 a whole frame at a time, out as floats (5.1 folded
/// to stereo by libfaad2). Used by one thread.
final class AACStreamDecoder: StreamDecoder {
    private let codecs: noiseclock_codecs
    private let handle: NeAACDecHandle
    private var pending: [UInt8] = []
    private var initialised = false
    /// Frames in a row libfaad2 refused: past a few, the stream is not AAC it can decode.
    private var failures = 0
    private(set) var codec = "aac"
    private(set) var sampleRate = 0
    private(set) var channels = 0

    /// An ADTS header is 7 bytes (9 with its CRC); a frame is at most 8191.
    static let headerBytes = 7

    init?(codecs: CodecLibrary) {
        self.codecs = codecs.table
        guard let handle = codecs.table.NeAACDecOpen() else { return nil }
        self.handle = handle
        if let config = codecs.table.NeAACDecGetCurrentConfiguration(handle) {
            config.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
            config.pointee.downMatrix = 1
            _ = codecs.table.NeAACDecSetConfiguration(handle, config)
        }
    }

    deinit { codecs.NeAACDecClose(handle) }

    /// The length of the ADTS frame at `index`, nil when no header starts there.
    static func frameLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes.count - index >= headerBytes, bytes[index] == 0xFF, bytes[index + 1] & 0xF6 == 0xF0 else { return nil }
        let length = Int(bytes[index + 3] & 0x03) << 11 | Int(bytes[index + 4]) << 3 | Int(bytes[index + 5]) >> 5
        return length >= headerBytes ? length : nil
    }

    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        pending += bytes
        var start = 0
        defer { pending.removeFirst(start) }
        while pending.count - start >= Self.headerBytes {
            guard let length = Self.frameLength(pending, at: start) else {
                // Not at a frame: look for the next sync (a stream joined mid-frame).
                start += 1
                if start > 64 * 1024, !initialised { return false }
                continue
            }
            guard pending.count - start >= length else { break }
            let ok = pending.withUnsafeMutableBufferPointer { decode($0.baseAddress! + start, length, frames) }
            failures = ok ? 0 : failures + 1
            if failures > 8 { return false }
            start += ok ? length : 1
        }
        return true
    }

    private func decode(_ frame: UnsafeMutablePointer<UInt8>, _ length: Int, _ frames: (UnsafeBufferPointer<Float>, Int) -> Void) -> Bool {
        if !initialised {
            var rate: UInt = 0
            var channels: UInt8 = 0
            guard codecs.NeAACDecInit(handle, frame, UInt(length), &rate, &channels) >= 0 else { return false }
            initialised = true
        }
        var info = NeAACDecFrameInfo()
        let samples = codecs.NeAACDecDecode(handle, &info, frame, UInt(length))
        guard info.error == 0 else { return false }
        guard let samples, info.samples > 0, info.channels > 0 else { return true }
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        codec = info.ps != 0 ? "he-aac-v2" : info.sbr == UInt8(SBR_UPSAMPLED) || info.sbr == UInt8(SBR_DOWNSAMPLED) ? "he-aac" : "aac"
        frames(UnsafeBufferPointer(start: samples.assumingMemoryBound(to: Float.self), count: Int(info.samples)), channels)
        return true
    }
}
