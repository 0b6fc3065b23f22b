/// A decoder fed a live stream's bytes as they arrive (any split), handing out interleaved float
/// blocks (−1…1) at the stream's own rate and channel count. Used by one thread (a player's or a
/// probe's), never the audio thread.
protocol StreamDecoder: AnyObject {
    /// The contract's codec name: `mp3`, `aac`, `he-aac`, `vorbis`, `opus`, `flac`.
    var codec: String { get }
    var sampleRate: Int { get }
    var channels: Int { get }
    /// Feeds `bytes`; every decoded block goes to `frames` (samples, channels per frame), every
    /// title the stream itself carries (Vorbis comments, OpusTags) to `title`. False: the bytes
    /// are not a stream this decoder can decode.
    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool
}

/// The audio formats a station may send, told by the response's type, else by the first bytes.
enum StreamFormat: String, Equatable, Sendable {
    case mp3, aac, ogg, flac

    /// By the Content-Type (lower-cased, parameters allowed); nil when it names none of these.
    static func from(contentType: String?) -> StreamFormat? {
        let type = contentType?.split(separator: ";").first.map { String($0).trimmingWhitespace() } ?? ""
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg": return .mp3
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/x-aacp": return .aac
        case "audio/ogg", "application/ogg", "audio/x-ogg", "audio/opus", "audio/vorbis", "audio/x-vorbis+ogg": return .ogg
        case "audio/flac", "audio/x-flac": return .flac
        default: return nil
        }
    }

    /// By the body's first bytes: an Ogg page, a FLAC signature, an ID3 tag (MP3), or a frame sync
    /// (ADTS AAC has layer 0, MPEG audio layers 1–3).
    static func sniff(_ head: [UInt8]) -> StreamFormat? {
        if head.starts(with: Array("OggS".utf8)) { return .ogg }
        if head.starts(with: Array("fLaC".utf8)) { return .flac }
        if head.starts(with: Array("ID3".utf8)) { return .mp3 }
        for index in head.indices.dropLast() where head[index] == 0xFF && head[index + 1] & 0xE0 == 0xE0 {
            // One header whose layer field decides is enough for a guess (the decoder then judges).
            let layer = (head[index + 1] >> 1) & 3
            if layer != 0 { return .mp3 }
            if head[index + 1] & 0xF0 == 0xF0 { return .aac }
        }
        return nil
    }

    /// The format's decoder, bounded (`BoundedStreamDecoder`): whoever reads a stream gets no other.
    func decoder(library: StreamLibrary) -> (any StreamDecoder)? {
        if self == .mp3 { return MP3StreamDecoder(library: library).map(BoundedStreamDecoder.init) }
        guard case .success(let codecs) = CodecLibrary.shared else { return nil }
        let made: (any StreamDecoder)?
        switch self {
        case .mp3: made = nil
        case .aac: made = AACStreamDecoder(codecs: codecs)
        case .ogg: made = OggStreamDecoder(codecs: codecs)
        case .flac: made = FLACStreamDecoder(codecs: codecs)
        }
        return made.map(BoundedStreamDecoder.init)
    }
}
