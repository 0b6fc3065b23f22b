/// What the radio's fuzz targets share: libFuzzer's driver (each target's `<Target>_main` hands
/// over to it, Fuzz/README says why) and a reader for the control bytes an input starts with.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

/// Runs libFuzzer with the process's arguments and `test` as the function under test.
public func runFuzzDriver(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: FuzzTest) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, test)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// libFuzzer's C symbol, named as libFuzzer names it.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: FuzzTest
) -> CInt

/// An input's bytes: a few control bytes taken from the front (0 once it is used up), the rest.
public struct FuzzInput {
    public private(set) var bytes: ArraySlice<UInt8>

    public init(_ data: UnsafePointer<UInt8>, _ count: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: count))[...]
    }

    public mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    /// `rest` cut in pieces of 1...`largest` bytes, their sizes from `seed` (a connection delivers
    /// a body in any pieces; the parsers must not care).
    public static func pieces(_ rest: ArraySlice<UInt8>, seed: UInt8, largest: Int) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var state = UInt32(seed) &* 2_654_435_761 | 1
        var index = rest.startIndex
        while index < rest.endIndex {
            state = state &* 1_103_515_245 &+ 12345
            let size = seed == 0 ? rest.count : 1 + Int(state >> 16) % largest
            let end = min(rest.endIndex, index + size)
            result.append(rest[index..<end])
            index = end
        }
        return result
    }
}

/// The promises every reader of a station keeps, checked by the targets (a broken one traps).
public enum FuzzChecks {
    /// A title as `~/noise` publishes it: at most `limit` scalars, no control characters.
    public static func title(_ title: String?, limit: Int) {
        guard let title else { return }
        precondition(title.unicodeScalars.count <= limit, "a title of \(title.unicodeScalars.count) scalars")
        precondition(!title.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a title with a control character")
    }
}
