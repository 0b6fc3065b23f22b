/// A stereo sample-rate converter that streams: libsoxr's (`Resampler`) or a station's
/// polyphase filter (`PolyphaseResampler`).
protocol StereoResampling: AnyObject {
    var inputRate: Int { get }
    /// The most output frames `frames` of input can yield in one call.
    func outputCapacity(forInput frames: Int) -> Int
    /// Converts `count` interleaved stereo frames; returns (input frames used, output frames written).
    func process(_ input: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>, capacity: Int) -> (used: Int, written: Int)
}

extension Resampler: StereoResampling {}
