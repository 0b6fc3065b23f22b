import CStream

/// MP3 from a live stream, fed as it arrives (libmpg123's feed mode), out as 16-bit samples at the
/// stream's own rate and channel count (1 or 2), brought to floats here. Used by one thread.
final class MP3StreamDecoder: StreamDecoder {
    let codec = "mp3"
    private let library: StreamLibrary
    private let handle: OpaquePointer
    /// Four MPEG frames at a time (18 KB; its floats 37 KB): a big read is decoded in steps.
    private var output = [UInt8](repeating: 0, count: 4 * 1152 * 2 * 2)
    private(set) var sampleRate = 0
    private(set) var channels = 0
    /// Bytes fed since audio last came out: libmpg123 never refuses bytes, it skips what it cannot
    /// sync to (frames changing rate every frame, garbage), so past this it is not MP3 to play.
    private var withoutAudio = 0
    static let maxBytesWithoutAudio = 1 << 20

    init?(library: StreamLibrary) {
        var error: Int32 = 0
        guard let handle = library.mp3New(nil, &error) else { return nil }
        self.library = library
        self.handle = handle
        // Every rate, mono or stereo, always signed 16-bit: one sample format to convert.
        _ = library.mp3FormatNone(handle)
        var list: UnsafePointer<Int>?
        var count = 0
        library.mp3Rates(&list, &count)
        let channels = Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), encoding = Int32(MPG123_ENC_SIGNED_16.rawValue)
        for index in 0..<count { _ = library.mp3Format(handle, list![index], channels, encoding) }
        guard library.mp3OpenFeed(handle) == MPG123_OK.rawValue else {
            library.mp3Delete(handle)
            return nil
        }
    }

    deinit { library.mp3Delete(handle) }

    /// MP3 carries no titles of its own here (ICY's are the connection's).
    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        feed(bytes, frames: frames)
    }

    /// Feeds `bytes` and hands every decoded block to `frames` (interleaved floats, −1…1, with
    /// `channels` per frame). False: the bytes are not MP3 libmpg123 can decode.
    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void) -> Bool {
        var input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var inputCount = bytes.count
        withoutAudio += bytes.count
        while true {
            var done = 0
            let status = output.withUnsafeMutableBufferPointer {
                library.mp3Decode(handle, input, inputCount, $0.baseAddress, $0.count, &done)
            }
            input = nil
            inputCount = 0
            if done > 0, channels > 0 {
                withoutAudio = 0
                let samples = done / 2
                let floats = [Float](unsafeUninitializedCapacity: samples) { buffer, count in
                    output.withUnsafeBytes { raw in
                        for i in 0..<samples { buffer[i] = Float(Int16(littleEndian: raw.load(fromByteOffset: 2 * i, as: Int16.self))) / 32768 }
                    }
                    count = samples
                }
                floats.withUnsafeBufferPointer { frames($0, channels) }
            }
            // After the block: `done` holds the frames before the change, in the old format.
            if status == MPG123_NEW_FORMAT.rawValue {
                var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
                _ = library.mp3GetFormat(handle, &rate, &channels, &encoding)
                sampleRate = rate
                self.channels = Int(channels)
            }
            if status == MPG123_NEED_MORE.rawValue { return withoutAudio < Self.maxBytesWithoutAudio }
            if status != MPG123_OK.rawValue, status != MPG123_NEW_FORMAT.rawValue { return false }
        }
    }
}
