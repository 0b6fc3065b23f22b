import Foundation

/// Measurements on captured audio: levels, envelopes, band powers and spectral slope.
enum SignalAnalysis {
    static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot()
    }

    static func rms(_ x: [Float]) -> Double { rms(x[...]) }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    /// RMS of consecutive windows of `window` samples.
    static func envelope(_ x: [Float], window: Int) -> [Double] {
        stride(from: 0, to: x.count - window + 1, by: window).map { rms(x[$0..<($0 + window)]) }
    }

    /// Averaged power per FFT bin (Hann window, 50% overlap) of a mono signal.
    static func welch(_ signal: [Float], size: Int = 4096) -> [Double] {
        var power = [Double](repeating: 0, count: size / 2)
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
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
    static func bandPower(_ power: [Double], from low: Double, to high: Double, sampleRate: Int = AudioCapture.sampleRate) -> Double {
        let binHz = Double(sampleRate) / Double(power.count * 2)
        let bins = Int((low / binHz).rounded(.up))...Int((high / binHz).rounded(.down))
        return bins.map { power[$0] }.reduce(0, +) / Double(bins.count)
    }

    /// Least-squares slope (dB per octave) of third-octave band means between two frequencies.
    static func slope(_ power: [Double], from low: Double, to high: Double) -> Double {
        var points: [(x: Double, y: Double)] = []
        var f = low
        while f * pow(2, 1.0 / 3) <= high * 1.0001 {
            let upper = f * pow(2, 1.0 / 3)
            points.append((log2((f * upper).squareRoot()), 10 * log10(bandPower(power, from: f, to: upper))))
            f = upper
        }
        let n = Double(points.count)
        let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
        let sxy = points.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +)
        let sxx = points.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        return sxy / sxx
    }
}
