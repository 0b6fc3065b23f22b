import FuzzSupport
@testable import NoiseClockRadio

/// The whole player on arbitrary bytes, through the real decoders (libmpg123, libfaad2, libogg with
/// libvorbis and libopus, libFLAC, opened as the node opens them). One input is `type, metaint,
/// split, body`: the first byte picks the response's Content-Type (none, each audio type, a
/// playlist's, HTML, or an HLS segment; its top bit set: Ogg CRCs left as they are), the second
/// the ICY interval (0: none, else n × 16 bytes), the third how the body arrives (0: whole, else
/// pieces of 1–4096 bytes). Every Ogg page's CRC is made right first (`OggCRC`). The body then goes
/// where the player sends it: through the ICY splitter into `StreamBodyReader` (which sniffs,
/// picks and feeds the decoder) and each decoded block into `StereoFrames`, as `StationSource`
/// does; an HLS segment through the MPEG-TS demuxer or as packed audio, as `HLSReader` does.
/// A native FLAC stream is decoded only with 48 KB in hand, so its body is followed by that much
/// of zeros. Besides "no crash": every block has whole frames of 1 or more channels, and every
/// title is bounded and free of control characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayer(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard case .success(let library) = StreamLibrary.shared else { preconditionFailure("the radio's libraries did not load") }
    var input = FuzzInput(data, count)
    let types: [String?] = [nil, "audio/mpeg", "audio/aacp", "audio/ogg", "audio/flac", "application/octet-stream", "text/html",
                            "audio/x-mpegurl", PlayerFeed.segment]
    let typeByte = input.byte()
    let type = types[Int(typeByte & 0x7F) % types.count]
    let metaint = Int(input.byte()) * 16
    let split = input.byte()
    // libogg drops a page whose CRC is wrong, and libFuzzer cannot make one right: so unless the
    // type byte's top bit is set, every Ogg page's CRC is made right, and mutated pages reach
    // the Vorbis, Opus and FLAC packet decoders.
    var body = Array(input.bytes)
    if typeByte & 0x80 == 0 { OggCRC.fix(&body) }
    let pieces = FuzzInput.pieces(body[...], seed: split, largest: 4096)
    let feed = PlayerFeed(library: library)
    if type == PlayerFeed.segment {
        feed.segment(pieces)
    } else {
        feed.stream(pieces, contentType: type, metaint: metaint == 0 ? nil : metaint)
    }
    return 0
}

/// The player's path for a body, and its checks on what comes out.
final class PlayerFeed {
    static let segment = "hls-segment"
    let library: StreamLibrary
    var stereo: [Float] = []

    init(library: StreamLibrary) { self.library = library }

    /// An Icecast body: ICY splitter, `StreamBodyReader`, decoder, stereo frames.
    func stream(_ pieces: [ArraySlice<UInt8>], contentType: String?, metaint: Int?) {
        var icy = IcyMetadataReader(interval: metaint)
        let body = StreamBodyReader(contentType: contentType, library: library)
        var going = true
        for piece in pieces where going {
            piece.withUnsafeBytes { bytes in
                icy.feed(bytes, audio: { chunk in
                    if going { going = body.feed(chunk, frames: take, title: Self.title) }
                }, title: Self.title)
            }
        }
        if going, body.decoder is FLACStreamDecoder {
            let zeros = [UInt8](repeating: 0, count: FLACStreamDecoder.nativeLookahead + 1)
            _ = zeros.withUnsafeBytes { body.feed($0, frames: take, title: Self.title) }
        }
        body.finish()
    }

    /// An HLS segment as `HLSReader` takes it: MPEG-TS when it starts with a sync byte, else
    /// packed audio (after an ID3 tag) fed whole to the decoder its first bytes name.
    func segment(_ pieces: [ArraySlice<UInt8>]) {
        let demuxer = MPEGTSDemuxer()
        var decoder: (any StreamDecoder)?
        var packed: [UInt8] = []
        var broken = false
        for piece in pieces where !broken {
            if !packed.isEmpty || (demuxer.audioPID == nil && piece.first != 0x47) {
                packed += piece
                continue
            }
            let ok = piece.withUnsafeBytes { bytes in
                demuxer.feed(bytes) { audio in
                    if decoder == nil, let format = demuxer.format { decoder = format.decoder(library: library) }
                    guard let current = decoder, !broken else {
                        broken = true
                        return
                    }
                    broken = !current.feed(audio, frames: take, title: Self.title)
                }
            }
            broken = broken || !ok
        }
        guard !broken, !packed.isEmpty else { return }
        var start = 0
        if packed.count >= 10, packed.starts(with: Array("ID3".utf8)) {
            start = 10 + (Int(packed[6] & 0x7F) << 21 | Int(packed[7] & 0x7F) << 14 | Int(packed[8] & 0x7F) << 7 | Int(packed[9] & 0x7F))
        }
        guard start < packed.count else { return }
        if decoder == nil { decoder = StreamFormat.sniff(Array(packed[start..<min(packed.count, start + 4096)]))?.decoder(library: library) }
        guard let decoder else { return }
        _ = packed[start...].withUnsafeBytes { decoder.feed($0, frames: take, title: Self.title) }
    }

    /// A decoded block, as `StationSource.deliver` takes it.
    private func take(_ samples: UnsafeBufferPointer<Float>, _ channels: Int) {
        precondition(channels > 0 && samples.count % channels == 0, "a block of \(samples.count) samples in \(channels) channels")
        StereoFrames.take(samples, channels: channels, into: &stereo)
    }

    private static func title(_ title: String?) { FuzzChecks.title(title, limit: 256) }
}

@_cdecl("FuzzPlayer_main")
func fuzzPlayerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzPlayer)
}
