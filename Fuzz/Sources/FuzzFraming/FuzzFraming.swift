import FuzzSupport
@testable import NoiseClockRadio

/// One input is `split, bytes`: the framing the node reads itself, before any C decoder sees a
/// byte. The bytes go through the MPEG-TS demuxer (an HLS segment: PAT, PMT, PES) whole and in
/// pieces (the second byte's pieces of 1–400 bytes), the ADTS frame scan at every offset, the
/// format sniffer, and the Vorbis comment reader (Vorbis, Opus and FLAC tags). Besides "no
/// crash": the demuxer's audio and stream do not depend on how the segment was cut, an ADTS
/// frame is 7–8191 bytes, and a tag's title is bounded and free of control characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFraming(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let split = input.byte()
    let bytes = Array(input.bytes)

    let whole = demux([input.bytes])
    let cut = demux(FuzzInput.pieces(input.bytes, seed: split, largest: 400))
    precondition(whole.audio == cut.audio && whole.format == cut.format && whole.accepted == cut.accepted,
                 "the demuxer's output depends on how the segment was cut")

    for index in bytes.indices {
        if let length = AACStreamDecoder.frameLength(bytes, at: index) {
            precondition((AACStreamDecoder.headerBytes...8191).contains(length), "an ADTS frame of \(length) bytes")
        }
    }
    _ = StreamFormat.sniff(bytes)
    bytes.withUnsafeBytes { FuzzChecks.title(VorbisComment.title($0), limit: 256) }
    return 0
}

/// The demuxer's audio payload, the stream it found, and whether it took the bytes for TS.
private func demux(_ pieces: [ArraySlice<UInt8>]) -> (audio: [UInt8], format: StreamFormat?, accepted: Bool) {
    let demuxer = MPEGTSDemuxer()
    var audio: [UInt8] = []
    for piece in pieces {
        let accepted = piece.withUnsafeBytes { demuxer.feed($0) { audio += $0 } }
        if !accepted { return (audio, demuxer.format, false) }
    }
    return (audio, demuxer.format, true)
}

@_cdecl("FuzzFraming_main")
func fuzzFramingMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzFraming)
}
