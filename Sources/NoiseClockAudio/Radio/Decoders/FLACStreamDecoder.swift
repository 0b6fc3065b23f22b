import CStream

/// FLAC, native (`audio/flac` over HTTP) or from Ogg packets, through libFLAC's stream decoder.
/// libFLAC pulls its bytes through a read callback, a stream pushes them, and a starved read loses
/// the frame: so a native stream's bytes are decoded only while more than `lookahead` wait (more
/// than a frame can hold; the read callback hands them out a few KB at a time); Ogg's packets are
/// whole frames and metadata blocks, so they are decoded as they come. Used by one thread.
final class FLACStreamDecoder: StreamDecoder {
    /// Above FLAC's largest frame in practice (4608 samples, stereo, 24 bits: about 28 KB).
    static let nativeLookahead = 48 * 1024
    static let readChunk = 4096
    private let codecs: noiseclock_codecs
    private var decoder: UnsafeMutablePointer<FLAC__StreamDecoder>?
    fileprivate var pending: [UInt8] = []
    fileprivate var readOffset = 0
    fileprivate var decoded: [Float] = []
    fileprivate var decodedChannels = 0
    /// A native stream's VORBIS_COMMENT block's title, till handed out (Ogg's are read by the Ogg layer).
    fileprivate var pendingTitle: String??
    /// Bytes fed since audio last came out: past this, the stream is not FLAC it can decode.
    private var withoutAudio = 0
    /// Bytes kept back from libFLAC: `nativeLookahead`, or 0 when fed whole frames (Ogg).
    let lookahead: Int
    let codec = "flac"
    fileprivate(set) var sampleRate = 0
    fileprivate(set) var channels = 0

    init(table: noiseclock_codecs, wholeFrames: Bool) {
        codecs = table
        lookahead = wholeFrames ? 0 : Self.nativeLookahead
        decoder = table.FLAC__stream_decoder_new()
        let context = Unmanaged.passUnretained(self).toOpaque()
        if !wholeFrames { _ = table.FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT) }
        let status = table.FLAC__stream_decoder_init_stream(
            decoder, flacRead, nil, nil, nil, nil, flacWrite, wholeFrames ? nil : flacMetadata, flacError, context)
        if status != FLAC__STREAM_DECODER_INIT_STATUS_OK {
            table.FLAC__stream_decoder_delete(decoder)
            decoder = nil
        }
    }

    convenience init(codecs: CodecLibrary) { self.init(table: codecs.table, wholeFrames: false) }

    deinit {
        guard let decoder else { return }
        _ = codecs.FLAC__stream_decoder_finish(decoder)
        codecs.FLAC__stream_decoder_delete(decoder)
    }

    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        guard let decoder else { return false }
        pending += bytes
        withoutAudio += bytes.count
        while pending.count - readOffset > lookahead {
            let before = readOffset
            decoded.removeAll(keepingCapacity: true)
            _ = codecs.FLAC__stream_decoder_process_single(decoder)
            let state = codecs.FLAC__stream_decoder_get_state(decoder)
            if state == FLAC__STREAM_DECODER_ABORTED || state == FLAC__STREAM_DECODER_END_OF_STREAM {
                // Starved or lost: start again at the next frame's sync.
                _ = codecs.FLAC__stream_decoder_flush(decoder)
            }
            if let pending = pendingTitle {
                pendingTitle = nil
                title(pending)
            }
            if !decoded.isEmpty, decodedChannels > 0 {
                withoutAudio = 0
                decoded.withUnsafeBufferPointer { frames($0, decodedChannels) }
            }
            if readOffset == before, decoded.isEmpty { break }
        }
        if readOffset > 256 * 1024 {
            pending.removeFirst(readOffset)
            readOffset = 0
        }
        return withoutAudio < 1024 * 1024
    }

    fileprivate static func context(_ client: UnsafeMutableRawPointer?) -> FLACStreamDecoder {
        Unmanaged<FLACStreamDecoder>.fromOpaque(client!).takeUnretainedValue()
    }
}

/// libFLAC asks for bytes: at most `readChunk` of what is kept; none kept is a starved read (abort).
private func flacRead(
    _: UnsafePointer<FLAC__StreamDecoder>?, _ buffer: UnsafeMutablePointer<FLAC__byte>?, _ bytes: UnsafeMutablePointer<Int>?,
    _ client: UnsafeMutableRawPointer?
) -> FLAC__StreamDecoderReadStatus {
    let decoder = FLACStreamDecoder.context(client)
    guard let buffer, let bytes else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    let count = min(bytes.pointee, FLACStreamDecoder.readChunk, decoder.pending.count - decoder.readOffset)
    guard count > 0 else {
        bytes.pointee = 0
        return FLAC__STREAM_DECODER_READ_STATUS_ABORT
    }
    decoder.pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + decoder.readOffset, count: count) }
    decoder.readOffset += count
    bytes.pointee = count
    return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
}

/// A decoded frame: each channel's integers to interleaved floats.
private func flacWrite(
    _: UnsafePointer<FLAC__StreamDecoder>?, _ frame: UnsafePointer<FLAC__Frame>?, _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>?,
    _ client: UnsafeMutableRawPointer?
) -> FLAC__StreamDecoderWriteStatus {
    let decoder = FLACStreamDecoder.context(client)
    guard let header = frame?.pointee.header, let buffer else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    let channels = Int(header.channels), count = Int(header.blocksize)
    let scale = 1 / Float(1 << (Int(header.bits_per_sample) - 1))
    decoder.sampleRate = Int(header.sample_rate)
    decoder.channels = channels
    decoder.decodedChannels = channels
    for index in 0..<count {
        for channel in 0..<channels { decoder.decoded.append(Float(buffer[channel]?[index] ?? 0) * scale) }
    }
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
}

/// A VORBIS_COMMENT block (the only kind asked for besides STREAMINFO): its title, kept for `feed`.
private func flacMetadata(
    _: UnsafePointer<FLAC__StreamDecoder>?, _ metadata: UnsafePointer<FLAC__StreamMetadata>?, _ client: UnsafeMutableRawPointer?
) {
    guard let metadata, metadata.pointee.type == FLAC__METADATA_TYPE_VORBIS_COMMENT else { return }
    let block = metadata.pointee.data.vorbis_comment
    var entries: [String] = []
    for index in 0..<Int(min(block.num_comments, 1000)) {
        guard let comment = block.comments?[index], let bytes = comment.entry else { continue }
        entries.append(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(comment.length)), as: UTF8.self))
    }
    FLACStreamDecoder.context(client).pendingTitle = .some(VorbisComment.title(entries: entries))
}

/// Lost sync or a bad frame: libFLAC goes on to the next frame by itself.
private func flacError(_: UnsafePointer<FLAC__StreamDecoder>?, _: FLAC__StreamDecoderErrorStatus, _: UnsafeMutableRawPointer?) {}
