import CSoxr

/// eSpeak NG's 22 050 Hz brought to the node's rate with libsoxr (a real resampler, not
/// interpolation), the whole utterance: libsoxr's one-shot output is the input's length at the new
/// rate, aligned on it, so the filter's response before the first sample and after the last one
/// is cut (at 48 kHz a click at the first sample kept 71 % of the energy of one in the middle, a
/// click at the last 96 %). Silence before and after, as long as the filter reaches, lets it all
/// come out: the voice starts 4.4 ms later, which no one hears.
public enum SpeechResampler {
    /// Input samples of silence on each side: the HQ filter's response falls below 1e-5 of full scale
    /// (under one 16-bit step) within about 85 input samples when upsampling (185 at 48 kHz), and
    /// within about 80 output samples when downsampling (measured with float samples, 2026-11-25).
    static let marginSamples = 96

    /// The silence added on each side of `input`-rate samples resampled to `output`, in input samples.
    public static func margin(from input: Int, to output: Int) -> Int {
        input <= output ? marginSamples : (marginSamples * input + output - 1) / output
    }

    public static func resample(_ samples: [Int16], from input: Int, to output: Int) -> [Int16] {
        guard input != output, !samples.isEmpty else { return samples }
        let margin = margin(from: input, to: output)
        let silence = [Int16](repeating: 0, count: margin)
        let padded = silence + samples + silence
        let capacity = Int((Double(padded.count) * Double(output) / Double(input)).rounded(.up)) + 16
        var out = [Int16](repeating: 0, count: capacity)
        var produced = 0
        var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let error = padded.withUnsafeBytes { inBuffer in
            out.withUnsafeMutableBytes { outBuffer in
                soxr_oneshot(
                    Double(input), Double(output), 1, inBuffer.baseAddress, padded.count, nil,
                    outBuffer.baseAddress, capacity, &produced, &io, &quality, nil)
            }
        }
        guard error == nil else { return [] }
        return Array(out.prefix(produced))
    }
}
