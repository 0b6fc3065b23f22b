import FuzzSupport
@testable import NoiseClockRadio

/// One input is what a station's server sends: response heads (a redirect's, then the final one's,
/// or an error's) and the body after them. The head is read line by line as libcurl hands it to
/// `StreamConnection` (`StreamHeadReader`), and the body goes through the ICY splitter the final
/// head's `icy-metaint` asks for, in pieces. Besides "no crash": a head is reported only for a
/// final response (not 3xx, not an error), its name is cut at 64 characters, its type is
/// lower-cased, and every title is bounded and free of control characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamHead(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    var reader = StreamHeadReader()
    var start = 0
    var final: StreamConnection.Head?
    while start < count, final == nil {
        // libcurl hands over one line at a time, its LF included.
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? count
        final = reader.read(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        start = end
    }
    guard let head = final else { return 0 }
    precondition(!(300..<400).contains(head.status) && head.status < 400, "reported the head of a \(head.status) response")
    precondition((head.name?.count ?? 0) <= 64, "a name of \(head.name!.count) characters")
    precondition(head.contentType.map { $0 == $0.lowercased() } ?? true, "a type not lower-cased")
    var icy = IcyMetadataReader(interval: head.metaInterval)
    var audio = 0
    icy.feed(UnsafeRawBufferPointer(rebasing: bytes[start...]), audio: { audio += $0.count }, title: {
        FuzzChecks.title($0, limit: IcyMetadataReader.maxTitleScalars)
    })
    precondition(audio <= count - start, "more audio than body")
    return 0
}

/// SwiftPM links an executable target with `main` aliased to `<Target>_main` (Fuzz/README).
@_cdecl("FuzzStreamHead_main")
func fuzzStreamHeadMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzStreamHead)
}
