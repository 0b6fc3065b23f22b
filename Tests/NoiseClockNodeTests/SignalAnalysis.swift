import Foundation

/// Measurements on captured audio: levels, envelopes, and the shared `Spectrum` at the capture's rate.
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
    static func welch(_ signal: [Float], size: Int = 4096) -> [Double] { Spectrum.welch(signal, size: size) }

    /// Mean power between two frequencies of a `welch` spectrum (relative units).
    static func bandPower(_ power: [Double], from low: Double, to high: Double, sampleRate: Int = AudioCapture.sampleRate) -> Double {
        Spectrum.bandPower(power, from: low, to: high, sampleRate: sampleRate)
    }

    /// Least-squares slope (dB per octave) of third-octave band means between two frequencies.
    static func slope(_ power: [Double], from low: Double, to high: Double) -> Double {
        Spectrum.slope(power, sampleRate: AudioCapture.sampleRate, from: low, to: high).slope
    }
}
