import Glibc

/// Test-side spectral analysis: a Welch power spectrum, band powers and the spectral slope.
public enum Spectrum {
    /// Averaged power per FFT bin (Hann window, 50% overlap) of a mono signal. `deep`: a 7-term
    /// Blackman-Harris window instead, whose side lobes are 180 dB down (Hann's leakage sits
    /// ~50 dB below a tone a few bins away), for purity checks; its main lobe spans ±7 bins.
    public static func welch(_ signal: [Float], size: Int = 4096, deep: Bool = false) -> [Double] {
        var power = [Double](repeating: 0, count: size / 2)
        let terms = deep
            ? [0.27105140069342, -0.43329793923448, 0.21812299954311, -0.06592544638803, 0.01081174209837, -0.00077658482522, 0.00001388721735]
            : [0.5, -0.5]
        let window = (0..<size).map { n in
            terms.enumerated().reduce(0.0) { $0 + $1.element * cos(2 * Double.pi * Double($1.offset * n) / Double(size)) }
        }
        var segments = 0
        var start = 0
        while start + size <= signal.count {
            var re = (0..<size).map { Double(signal[start + $0]) * window[$0] }
            var im = [Double](repeating: 0, count: size)
            FFT.transform(&re, &im)
            for k in 0..<(size / 2) { power[k] += re[k] * re[k] + im[k] * im[k] }
            segments += 1
            start += size / 2
        }
        return power.map { $0 / Double(max(1, segments)) }
    }

    /// Mean power between two frequencies of a `welch` spectrum (relative units).
    public static func bandPower(_ power: [Double], from low: Double, to high: Double, sampleRate: Int) -> Double {
        let binHz = Double(sampleRate) / Double(power.count * 2)
        let bins = Int((low / binHz).rounded(.up))...Int((high / binHz).rounded(.down))
        return bins.map { power[$0] }.reduce(0, +) / Double(bins.count)
    }

    /// Least-squares slope of the power spectrum in dB per octave between two frequencies,
    /// and the largest deviation (dB) of third-octave band averages from that line.
    public static func slope(_ power: [Double], sampleRate: Int, from low: Double, to high: Double) -> (slope: Double, maxDeviation: Double) {
        // Third-octave bands, each the mean of its bins, so every octave weighs the same.
        var points: [(x: Double, y: Double)] = []
        var f = low
        while f * pow(2, 1.0 / 3) <= high * 1.0001 {
            let upper = f * pow(2, 1.0 / 3)
            points.append((log2((f * upper).squareRoot()), 10 * log10(bandPower(power, from: f, to: upper, sampleRate: sampleRate))))
            f = upper
        }
        let n = Double(points.count)
        let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
        let sxy = points.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +)
        let sxx = points.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        let slope = sxy / sxx
        let deviation = points.map { abs($0.y - (my + slope * ($0.x - mx))) }.max() ?? 0
        return (slope, deviation)
    }
}
