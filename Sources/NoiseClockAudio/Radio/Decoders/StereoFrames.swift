/// A decoder's interleaved frames (any channel count) as stereo pairs at the head of `stereo`
/// (grown, never shrunk): mono to both sides, past two channels the first two (front left and
/// right in every codec's order).
/// Pointer loops, not `append`: this runs for every sample of a station (Benchmarks/radio-cpu.sh).
enum StereoFrames {
    static func take(_ samples: UnsafeBufferPointer<Float>, channels: Int, into stereo: inout [Float]) {
        let frames = samples.count / channels
        if stereo.count < 2 * frames { stereo = [Float](repeating: 0, count: 2 * frames) }
        guard frames > 0, let input = samples.baseAddress else { return }
        stereo.withUnsafeMutableBufferPointer { output in
            let out = output.baseAddress!
            switch channels {
            case 1:
                for frame in 0..<frames {
                    out[2 * frame] = input[frame]
                    out[2 * frame + 1] = input[frame]
                }
            case 2:
                out.update(from: input, count: 2 * frames)
            default:
                for frame in 0..<frames {
                    out[2 * frame] = input[frame * channels]
                    out[2 * frame + 1] = input[frame * channels + 1]
                }
            }
        }
    }
}
