import FuzzSupport
import NoiseClockCore
@testable import NoiseClockRadio

/// One input is `type, body`: the first byte picks the response's Content-Type (none, the m3u and
/// pls types, audio, HTML), the rest is the body's head as `StreamBodyReader` hands it to
/// `StationPlaylist.classify`. The m3u and pls readers also read it directly. Besides "no crash":
/// every address a playlist yields is one `Station.isValidURL` accepts (the player follows it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let types: [String?] = [nil, "audio/x-mpegurl", "audio/x-scpls", "application/vnd.apple.mpegurl", "audio/mpeg",
                            "text/html; charset=utf-8", "audio/mpegurl; charset=utf-8", "application/octet-stream"]
    let type = types[Int(input.byte()) % types.count]
    let head = Array(input.bytes)
    let text = String(decoding: head, as: UTF8.self)
    for verdict in [StationPlaylist.classify(head: head, contentType: type), StationPlaylist.m3u(text), StationPlaylist.pls(text)] {
        if case .redirect(let url) = verdict { precondition(Station.isValidURL(url), "a playlist led to \(url)") }
    }
    return 0
}

@_cdecl("FuzzPlaylist_main")
func fuzzPlaylistMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzPlaylist)
}
