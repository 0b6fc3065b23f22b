#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Test-side signal analysis: a radix-2 FFT and a Welch power spectrum.
enum Spectrum {
    /// Averaged power per FFT bin (Hann window, 50% overlap) of a mono signal. `deep`: a 7-term
    /// Blackman-Harris window instead, whose side lobes are 180 dB down (Hann's leakage sits
    /// ~50 dB below a tone a few bins away), for purity checks; its main lobe spans ±7 bins.
    static func welch(_ signal: [Float], size: Int = 4096, deep: Bool = false) -> [Double] {
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
        return power.map { $0 / Double(segments) }
    }

    /// Least-squares slope of the power spectrum in dB per octave between two frequencies,
    /// and the largest deviation (dB) of third-octave band averages from that line.
    static func slope(_ power: [Double], sampleRate: Int, from low: Double, to high: Double) -> (slope: Double, maxDeviation: Double) {
        let binHz = Double(sampleRate) / Double(power.count * 2)
        // Third-octave bands, each the mean of its bins, so every octave weighs the same.
        var points: [(x: Double, y: Double)] = []
        var f = low
        while f * pow(2, 1.0 / 3) <= high * 1.0001 {
            let upper = f * pow(2, 1.0 / 3)
            let bins = Int((f / binHz).rounded(.up))...Int((upper / binHz).rounded(.down))
            let mean = bins.map { power[$0] }.reduce(0, +) / Double(bins.count)
            points.append((log2((f * upper).squareRoot()), 10 * log10(mean)))
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

/// Renders a source into separate left and right arrays.
func renderChannels(_ source: any SoundSource, frames: Int) -> (left: [Float], right: [Float]) {
    var left = [Float](), right = [Float]()
    left.reserveCapacity(frames)
    right.reserveCapacity(frames)
    let block = 1024
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * 2)
    defer { buffer.deallocate() }
    var done = 0
    while done < frames {
        let count = min(block, frames - done)
        source.render(into: buffer, frames: count)
        for i in 0..<count {
            left.append(buffer[2 * i])
            right.append(buffer[2 * i + 1])
        }
        done += count
    }
    return (left, right)
}

func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
func mean(_ x: [Float]) -> Double { x.reduce(0.0) { $0 + Double($1) } / Double(x.count) }
func correlation(_ a: [Float], _ b: [Float]) -> Double {
    let ma = mean(a), mb = mean(b)
    var sab = 0.0, saa = 0.0, sbb = 0.0
    for i in 0..<min(a.count, b.count) {
        let da = Double(a[i]) - ma, db = Double(b[i]) - mb
        sab += da * db
        saa += da * da
        sbb += db * db
    }
    return sab / (saa * sbb).squareRoot()
}
func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

/// Loudness as the ear weighs it: the IEC 61672 A-weighting curve applied to a Welch spectrum.
enum AWeightedLevel {
    /// The A-weighting gain (amplitude, 1 at 1 kHz) at `f` Hz: IEC 61672-1 equation E.6 with its
    /// pole frequencies and the +2.00 dB normalisation.
    static func gain(_ f: Double) -> Double {
        let f1 = 20.598997, f2 = 107.65265, f3 = 737.86223, f4 = 12194.217
        let f2sq = f * f
        let r = f4 * f4 * f2sq * f2sq / ((f2sq + f1 * f1) * ((f2sq + f2 * f2) * (f2sq + f3 * f3)).squareRoot() * (f2sq + f4 * f4))
        return r * pow(10, 2.0 / 20)
    }

    /// A-weighted RMS of a mono signal (full scale = 1): its mean square times the weighted share
    /// of its spectrum. 16384-point segments (2.9 Hz bins) so that the large sub-20 Hz power of
    /// pink noise does not leak into the audible bins and inflate the estimate.
    static func rms(_ signal: [Float], sampleRate: Int, size: Int = 16384) -> Double {
        let power = Spectrum.welch(signal, size: size)
        let binHz = Double(sampleRate) / Double(size)
        var weighted = 0.0
        for (k, p) in power.enumerated() { weighted += p * pow(gain(Double(k) * binHz), 2) }
        let total = power.reduce(0, +)
        let meanSquare = signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(signal.count)
        return (meanSquare * weighted / total).squareRoot()
    }

    /// Both channels together, in dB relative to full scale.
    static func decibels(_ left: [Float], _ right: [Float], sampleRate: Int) -> Double {
        let l = rms(left, sampleRate: sampleRate), r = rms(right, sampleRate: sampleRate)
        return 10 * log10((l * l + r * r) / 2)
    }
}
