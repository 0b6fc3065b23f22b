#if canImport(Glibc)
import Glibc
#endif

/// Stereo sample-rate conversion for a station's lossy stream: a polyphase FIR of 32 taps per
/// phase (more when it lowers the rate), Kaiser-windowed sinc (β 8) cut at 90.7 % of the lower
/// rate's Nyquist, each phase's gain 1. From 44.1 kHz to 48: flat within 0.1 dB to 16 kHz,
/// images of a 15 kHz tone 87 dB down (`PolyphaseResamplerTests`). It costs about half of
/// libsoxr's medium quality, which was a seventh of the node's CPU playing an HE-AAC station
/// (issue 40, docs/performance.md); a stream's decoder gives no more than this keeps.
/// Streams: feed it blocks, it keeps the last taps of each channel. Used by one thread.
final class PolyphaseResampler: StereoResampling {
    let inputRate: Int
    let outputRate: Int
    /// The rates' ratio in lowest terms: `up` phases, `down` input steps per output frame.
    private let up: Int, down: Int
    let taps: Int
    /// `up` rows of `taps` coefficients.
    private let coefficients: UnsafeMutablePointer<Float>
    /// Each channel's history and the block being converted (`taps` + `chunk` samples).
    private let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    private var filled: Int
    /// The next output frame's phase (0..<up) at its window's first sample, `start` in the history.
    private var phase = 0

    static let baseTaps = 32
    /// Input frames taken per pass (a longer block is taken in passes).
    static let chunk = 4096
    /// Past this many phases (rates whose ratio has no small terms, e.g. 44 056 Hz) the table
    /// would be large: `make` gives libsoxr instead.
    static let maxPhases = 1024
    static let kaiserBeta = 8.0
    /// The cut-off as a fraction of the lower rate's Nyquist frequency.
    static let cutoff = 0.907

    /// The station's resampler for these rates: this one, or libsoxr's medium quality for a
    /// ratio with no small terms.
    static func make(from inputRate: Int, to outputRate: Int) -> (any StereoResampling)? {
        if let resampler = PolyphaseResampler(from: inputRate, to: outputRate) { return resampler }
        return try? Resampler(from: inputRate, to: outputRate, quality: .medium)
    }

    /// nil for rates outside 1 Hz…1 MHz or a ratio needing more than `maxPhases` phases.
    init?(from inputRate: Int, to outputRate: Int) {
        guard (1...1_000_000).contains(inputRate), (1...1_000_000).contains(outputRate) else { return nil }
        let divisor = Self.gcd(inputRate, outputRate)
        up = outputRate / divisor
        down = inputRate / divisor
        // A steep fall in rate (past 8:1) would need a longer filter than its step: libsoxr's.
        guard up <= Self.maxPhases, down <= 8 * up else { return nil }
        self.inputRate = inputRate
        self.outputRate = outputRate
        // Lowering the rate narrows the band in input samples: the filter grows with the ratio.
        let stretch = max(1.0, Double(inputRate) / Double(outputRate))
        taps = min(256, Int((Double(Self.baseTaps) * stretch / 8).rounded(.up)) * 8)
        coefficients = .allocate(capacity: up * taps)
        left = .allocate(capacity: taps + Self.chunk)
        right = .allocate(capacity: taps + Self.chunk)
        // The first frames' windows reach back before the stream: silence.
        filled = taps / 2 - 1
        left.initialize(repeating: 0, count: taps + Self.chunk)
        right.initialize(repeating: 0, count: taps + Self.chunk)
        design(cutoff: Self.cutoff * 0.5 * Double(min(inputRate, outputRate)) / Double(inputRate))
    }

    deinit {
        coefficients.deallocate()
        left.deallocate()
        right.deallocate()
    }

    /// Row `p` holds the sinc at distances (k − taps/2 + 1) − p/up input samples, windowed, its
    /// sum 1. `cycles`: the cut-off in cycles per input sample.
    private func design(cutoff cycles: Double) {
        let half = Double(taps) / 2
        let norm = Self.besselI0(Self.kaiserBeta)
        for row in 0..<up {
            var sum = 0.0
            var values = [Double](repeating: 0, count: taps)
            for k in 0..<taps {
                let x = Double(k) - half + 1 - Double(row) / Double(up)
                let sinc = abs(x) < 1e-12 ? 2 * cycles : sin(2 * Double.pi * cycles * x) / (Double.pi * x)
                let r = x / half
                let window = abs(r) <= 1 ? Self.besselI0(Self.kaiserBeta * (1 - r * r).squareRoot()) / norm : 0
                values[k] = sinc * window
                sum += values[k]
            }
            for k in 0..<taps { coefficients[row * taps + k] = Float(values[k] / sum) }
        }
    }

    /// The modified Bessel function of the first kind, order 0 (its series).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        for k in 1..<40 {
            term *= (x / 2 / Double(k)) * (x / 2 / Double(k))
            sum += term
        }
        return sum
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    func outputCapacity(forInput frames: Int) -> Int { frames * up / down + 2 }

    /// Converts `count` interleaved stereo frames; returns (input frames used, output frames
    /// written). Every input frame is taken; the output stops at `capacity` (what did not fit
    /// comes with the next call).
    func process(_ input: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>, capacity: Int) -> (used: Int, written: Int) {
        var used = 0, written = 0
        while used < count {
            // Room after the history (an output held back for want of `capacity` keeps its window).
            let frames = min(Self.chunk + taps - filled, count - used)
            guard frames > 0 else { break }
            for i in 0..<frames {
                left[filled + i] = input[2 * (used + i)]
                right[filled + i] = input[2 * (used + i) + 1]
            }
            filled += frames
            used += frames
            written += convert(into: output + 2 * written, capacity: capacity - written)
        }
        return (used, written)
    }

    /// Every output frame whose window the history holds, then the history's spent part let go.
    private func convert(into output: UnsafeMutablePointer<Float>, capacity: Int) -> Int {
        let groups = taps / 8
        let whole = down / up, rest = down % up
        let rows = UnsafeRawPointer(coefficients), lefts = UnsafeRawPointer(left), rights = UnsafeRawPointer(right)
        var start = 0, written = 0, phase = self.phase
        defer { self.phase = phase }
        while start + taps <= filled, written < capacity {
            var sumLeft = SIMD8<Float>(), sumRight = SIMD8<Float>()
            let row = phase &* taps
            for g in 0..<groups {
                let c = rows.loadUnaligned(fromByteOffset: 4 &* (row &+ 8 &* g), as: SIMD8<Float>.self)
                sumLeft += c * lefts.loadUnaligned(fromByteOffset: 4 &* (start &+ 8 &* g), as: SIMD8<Float>.self)
                sumRight += c * rights.loadUnaligned(fromByteOffset: 4 &* (start &+ 8 &* g), as: SIMD8<Float>.self)
            }
            output[2 &* written] = sumLeft.sum()
            output[2 &* written &+ 1] = sumRight.sum()
            written &+= 1
            start &+= whole
            phase &+= rest
            if phase >= up {
                phase &-= up
                start &+= 1
            }
        }
        // Keep from the next window's first sample on (at most `taps` + a step).
        let keep = min(start, filled)
        memmove(left, left + keep, (filled - keep) * MemoryLayout<Float>.stride)
        memmove(right, right + keep, (filled - keep) * MemoryLayout<Float>.stride)
        filled -= keep
        return written
    }
}
