import FuzzSupport
import Glibc
import NoiseClockCore
@testable import NoiseClockRadio

/// One input is `base, text`: the first byte picks the playlist's own address (a path, a query, a
/// port, none), the rest is an HLS playlist, media or master, as `HLSReader` reads it. Besides "no
/// crash": a media playlist's segments are numbered one after the other from its media sequence
/// (unless that comes after a segment: `HarnessGuards`), and every reference made absolute
/// against an http(s) address is an absolute address.
///
/// Until the HLS numbers' bounds land (issue 37, the first finding: `#EXT-X-MEDIA-SEQUENCE` near
/// Int.max or Int.min traps in `HLSPlaylist.init`), inputs with a media sequence beyond ±2^53 are
/// passed over here, so the run looks past that one known crash; `FUZZ_HLS_ALL_NUMBERS=1` keeps them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLS(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let bases = ["https://radio.example/live/index.m3u8?token=1", "http://radio.example:8000/a/b/c.m3u8#x", "http://radio.example",
                 "https://radio.example/", "radio.example/live.m3u8", "http://[::1]:8080/live/master.m3u8"]
    let base = bases[Int(input.byte()) % bases.count]
    let text = String(decoding: input.bytes, as: UTF8.self)
    guard HarnessGuards.allNumbers || !HarnessGuards.hugeMediaSequence(text) else { return 0 }
    guard let playlist = HLSPlaylist(text) else { return 0 }
    let renumbered = HarnessGuards.mediaSequenceAfterASegment(text)
    for (offset, segment) in playlist.segments.enumerated() {
        precondition(renumbered || segment.sequence == playlist.segments[0].sequence + offset, "segments not numbered in turn")
        let absolute = HLSPlaylist.resolve(segment.uri, against: base)
        precondition(!base.contains("://") || absolute.contains("://"), "\(segment.uri) against \(base) gave \(absolute)")
    }
    for variant in playlist.variants {
        let absolute = HLSPlaylist.resolve(variant.uri, against: base)
        precondition(!base.contains("://") || absolute.contains("://"), "\(variant.uri) against \(base) gave \(absolute)")
    }
    _ = HLSPlaylist.attributes(text)
    return 0
}

/// The harness's own allowances for what another change fixes (not the product's guards).
enum HarnessGuards {
    static let allNumbers = getenv("FUZZ_HLS_ALL_NUMBERS").map { String(cString: $0) } == "1"

    /// A `#EXT-X-MEDIA-SEQUENCE` line, as `HLSPlaylist` reads it, whose number is beyond ±2^53.
    static func hugeMediaSequence(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map { String($0).trimmingWhitespace() }
        return lines.contains { line in
            line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") && Int(line.dropFirst(22)).map { $0.magnitude > 1 << 53 } == true
        }
    }

    /// A `#EXT-X-MEDIA-SEQUENCE` line after a segment's address (RFC 8216 wants it before the
    /// first segment): `HLSPlaylist` numbers the later segments from it, so their numbers are not
    /// in turn (found by this target: 0, then -2). Left to the HLS change; not checked till then.
    static func mediaSequenceAfterASegment(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map { String($0).trimmingWhitespace() }
        guard let first = lines.dropFirst().firstIndex(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else { return false }
        return lines[first...].contains { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") }
    }
}

@_cdecl("FuzzHLS_main")
func fuzzHLSMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzHLS)
}
