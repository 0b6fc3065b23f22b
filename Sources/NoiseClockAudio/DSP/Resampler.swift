import CSoxr

/// Stereo sample-rate conversion with libsoxr (its "high quality": 20-bit precision, images and
/// aliases > 110 dB down), for files recorded at another rate than the output's; a station's lossy
/// stream takes `medium` (16-bit precision, as its decoder gives no more; about a third less
/// CPU, measured by Benchmarks/radio-cpu.sh). It streams:
/// feed it blocks, it keeps its own filter history, so a recording of any length goes through.
final class Resampler {
    struct Failure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    let inputRate: Int
    let outputRate: Int
    private let handle: soxr_t

    enum Quality {
        case high, medium
    }

    init(from inputRate: Int, to outputRate: Int, quality: Quality = .high) throws(Failure) {
        var error: soxr_error_t?
        var quality = soxr_quality_spec(UInt(quality == .high ? SOXR_HQ : SOXR_MQ), 0)
        guard let handle = soxr_create(Double(inputRate), Double(outputRate), 2, &error, nil, &quality, nil), error == nil else {
            throw Failure(description: "soxr: " + (error.map { String(cString: $0) } ?? "cannot create a resampler"))
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.handle = handle
    }

    deinit { soxr_delete(handle) }

    /// The most output frames `frames` of input can yield in one call (with the filter's slack).
    func outputCapacity(forInput frames: Int) -> Int { frames * outputRate / inputRate + 256 }

    /// Converts `count` input frames; returns (input frames used, output frames written).
    func process(_ input: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>, capacity: Int) -> (used: Int, written: Int) {
        var used = 0, written = 0
        _ = soxr_process(handle, input, count, &used, output, capacity, &written)
        return (used, written)
    }
}
