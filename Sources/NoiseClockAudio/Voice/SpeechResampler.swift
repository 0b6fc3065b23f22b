import CSoxr

/// eSpeak NG's 22 050 Hz brought to the node's rate with libsoxr (a real resampler, not
/// interpolation).
public enum SpeechResampler {
    public static func resample(_ samples: [Int16], from input: Int, to output: Int) -> [Int16] {
        guard input != output, !samples.isEmpty else { return samples }
        let capacity = Int((Double(samples.count) * Double(output) / Double(input)).rounded(.up)) + 16
        var out = [Int16](repeating: 0, count: capacity)
        var produced = 0
        var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let error = samples.withUnsafeBytes { inBuffer in
            out.withUnsafeMutableBytes { outBuffer in
                soxr_oneshot(
                    Double(input), Double(output), 1, inBuffer.baseAddress, samples.count, nil,
                    outBuffer.baseAddress, capacity, &produced, &io, &quality, nil)
            }
        }
        guard error == nil else { return [] }
        return Array(out.prefix(produced))
    }
}
