/// An HLS station's segments, one after the other, into one decoder: MPEG-TS through
/// `MPEGTSDemuxer`, or packed ADTS/MP3 audio after an ID3 tag, fed as the bytes arrive (never
/// held whole). Each segment is read to `StreamLimits.segmentBytes` or `segmentAudioFactor` times
/// its `#EXTINF` in decoded audio, then cut: a segment that never ends costs time, not memory.
/// Used by one thread (a player's or a probe's), through `HLSReader`.
final class HLSSegmentReader {
    let library: StreamLibrary
    private let demuxer = MPEGTSDemuxer()
    private(set) var decoder: (any StreamDecoder)?
    /// The decoder refused the audio: the stream is `undecodable`.
    private(set) var broken = false

    // The segment under way.
    private var packed = false
    private var firstChunk = true
    private var tagChecked = false
    /// An ID3 tag's bytes still to pass over.
    private var skip = 0
    /// Packed audio held until the tag's header, then the sniff's 4 KB, are complete.
    private var pending: [UInt8] = []
    private var audioSeconds = 0.0

    init(library: StreamLibrary) {
        self.library = library
    }

    struct Outcome {
        var end: StreamConnection.End
        /// Seconds of audio decoded from it.
        var audioSeconds: Double
        /// Read to a bound and cut.
        var cut: Bool
    }

    /// Reads one segment of `duration` seconds (its `#EXTINF`) at `url`.
    func read(_ url: String, duration: Double, connection: (String) -> StreamConnection, hooks: HLSReader.Hooks) -> Outcome {
        (packed, firstChunk, tagChecked, skip, pending, audioSeconds) = (false, true, false, 0, [], 0)
        var received = 0, cut = false
        let most = duration * StreamLimits.segmentAudioFactor
        // A read brings up to 16 KB (2 s of 64 kb/s): what its decoding gives past the bound is dropped.
        let deliver = { (samples: UnsafeBufferPointer<Float>, channels: Int, decoder: any StreamDecoder) in
            guard self.audioSeconds < most else { return }
            if decoder.sampleRate > 0, channels > 0 { self.audioSeconds += Double(samples.count / channels) / Double(decoder.sampleRate) }
            hooks.frames(samples, channels, decoder.sampleRate, decoder.codec)
        }
        let end = connection(url).run(library: library, onHead: { _ in true }, onAudio: { bytes in
            received += bytes.count
            if self.firstChunk {
                self.firstChunk = false
                self.packed = self.demuxer.audioPID == nil && bytes.first != 0x47
            }
            let ok = self.packed ? self.feedPacked(Array(bytes), deliver, hooks) : self.feedTransport(bytes, deliver, hooks)
            if ok, !self.broken, received >= StreamLimits.segmentBytes || self.audioSeconds >= most {
                cut = true
                return false
            }
            return ok && !self.broken && !hooks.shouldStop()
        }, onTitle: { _ in }, shouldStop: hooks.shouldStop)
        if packed, !hooks.shouldStop() { finishPacked(deliver, hooks) }
        return Outcome(end: cut ? .closed : end, audioSeconds: audioSeconds, cut: cut)
    }

    private typealias Deliver = (UnsafeBufferPointer<Float>, Int, any StreamDecoder) -> Void

    private func feedTransport(_ bytes: UnsafeRawBufferPointer, _ deliver: @escaping Deliver, _ hooks: HLSReader.Hooks) -> Bool {
        demuxer.feed(bytes) { audio in
            if decoder == nil, let format = demuxer.format { decoder = format.decoder(library: library) }
            guard let current = decoder, !broken else {
                broken = true
                return
            }
            broken = !current.feed(audio, frames: { deliver($0, $1, current) }, title: hooks.title)
        }
    }

    /// Packed audio as it arrives: the ID3 tag's header read and the tag passed over (its size is
    /// counted, not held), the format sniffed on the first 4 KB after it, then fed straight on.
    private func feedPacked(_ chunk: [UInt8], _ deliver: @escaping Deliver, _ hooks: HLSReader.Hooks) -> Bool {
        var bytes = ArraySlice(chunk)
        if !tagChecked {
            pending += bytes
            guard pending.count >= 10 else { return true }
            tagChecked = true
            bytes = ArraySlice(pending)
            pending = []
            if bytes.starts(with: Array("ID3".utf8)) {
                let b = Array(bytes.prefix(10))
                skip = 10 + (Int(b[6] & 0x7F) << 21 | Int(b[7] & 0x7F) << 14 | Int(b[8] & 0x7F) << 7 | Int(b[9] & 0x7F))
            }
        }
        if skip > 0 {
            let passed = min(skip, bytes.count)
            skip -= passed
            bytes = bytes.dropFirst(passed)
        }
        guard !bytes.isEmpty else { return true }
        guard let current = decoder else {
            pending += bytes
            return pending.count < 4096 || startPacked(deliver, hooks)
        }
        let ok = bytes.withUnsafeBytes { current.feed($0, frames: { deliver($0, $1, current) }, title: hooks.title) }
        broken = broken || !ok
        return ok
    }

    /// The segment ended: what is held (a short segment) is judged now.
    private func finishPacked(_ deliver: @escaping Deliver, _ hooks: HLSReader.Hooks) {
        if !tagChecked {
            // Fewer than 10 bytes: no tag.
            tagChecked = true
        }
        if decoder == nil, !pending.isEmpty { _ = startPacked(deliver, hooks) }
        pending = []
    }

    private func startPacked(_ deliver: @escaping Deliver, _ hooks: HLSReader.Hooks) -> Bool {
        let held = pending
        pending = []
        guard let made = StreamFormat.sniff(Array(held.prefix(4096)))?.decoder(library: library) else {
            broken = true
            return false
        }
        decoder = made
        let ok = held.withUnsafeBytes { made.feed($0, frames: { deliver($0, $1, made) }, title: hooks.title) }
        broken = broken || !ok
        return ok
    }
}
