import FuzzSupport
@testable import NoiseClockRadio

/// One input is `interval, split, body`: the first byte picks the `icy-metaint` (0: none; 1–250
/// itself, so blocks come often; 251–255 the values a server must not be believed for: 0, -1,
/// Int.min, Int.max, over 1 MB), the second how the body arrives (0: in one piece; else pieces of
/// 1–64 bytes), the rest is the body. Besides "no crash": the audio and the titles do not depend
/// on how the body was cut, every title is bounded and free of control characters, and no more
/// audio comes out than went in.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIcy(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let pick = input.byte()
    let split = input.byte()
    let odd = [0, -1, Int.min, Int.max, 1_048_577]
    let interval: Int? = pick == 0 ? nil : pick <= 250 ? Int(pick) : odd[Int(pick) - 251]
    let whole = read(interval, [input.bytes])
    let cut = read(interval, FuzzInput.pieces(input.bytes, seed: split, largest: 64))
    precondition(whole.audio == cut.audio && whole.titles == cut.titles, "the output depends on how the body was cut")
    precondition(whole.audio.count <= input.bytes.count, "more audio than body")
    for title in whole.titles { FuzzChecks.title(title, limit: IcyMetadataReader.maxTitleScalars) }
    return 0
}

private func read(_ interval: Int?, _ pieces: [ArraySlice<UInt8>]) -> (audio: [UInt8], titles: [String?]) {
    var reader = IcyMetadataReader(interval: interval)
    var audio: [UInt8] = [], titles: [String?] = []
    for piece in pieces {
        piece.withUnsafeBytes { reader.feed($0, audio: { audio += $0 }, title: { titles.append($0) }) }
    }
    return (audio, titles)
}

@_cdecl("FuzzIcy_main")
func fuzzIcyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzDriver(argc, argv, fuzzIcy)
}
