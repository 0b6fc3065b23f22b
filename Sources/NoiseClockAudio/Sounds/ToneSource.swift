#if canImport(Glibc)
import Glibc
#endif

/// The built-in alarm tones, synthesised (no recordings). Each repeats a pattern whose end is
/// silent, so the repeat has no seam.
public enum AlarmTone: String, Sendable, CaseIterable {
    case digital, classic, beep, siren, chime

    /// Seconds per repeat of the pattern.
    var cycleSeconds: Double {
        switch self {
        case .digital: 1.0
        case .classic: 2.5
        case .beep: 1.0
        case .siren: 4.0
        case .chime: 4.0
        }
    }
}

/// Plays one `AlarmTone` as mono on both channels, computed sample by sample (tones ring
/// rarely; clarity beats speed here).
public final class ToneSource: SoundSource {
    private let tone: AlarmTone
    private let sampleRate: Double
    private let cycleFrames: Int
    private var frame = 0
    private var sirenPhase: Double = 0

    public init(_ tone: AlarmTone, sampleRate: Int) {
        self.tone = tone
        self.sampleRate = Double(sampleRate)
        cycleFrames = Int(tone.cycleSeconds * Double(sampleRate))
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let t = Double(frame) / sampleRate
            let value = sample(at: t)
            out[2 &* i] = Float(value)
            out[2 &* i &+ 1] = Float(value)
            frame += 1
            if frame >= cycleFrames { frame = 0 }
        }
    }

    private func sample(at t: Double) -> Double {
        switch tone {
        case .digital:
            // Four short square-ish beeps at 2.7 kHz, then a pause: the bedside alarm clock.
            let slot = t / 0.125
            guard slot < 4 else { return 0 }
            let within = (slot - slot.rounded(.down)) * 0.125
            return 0.45 * Self.gate(within, length: 0.07, edge: 0.003) * Self.square(2730 * t)
        case .beep:
            return 0.45 * Self.gate(t, length: 0.4, edge: 0.005) * sin(2 * .pi * 1000 * t)
        case .classic:
            // A bell struck twenty times a second for 1.6 s, then it rings out.
            let strike = t.truncatingRemainder(dividingBy: 0.05)
            var envelope: Double = t < 1.6 ? 0.35 + 0.65 * exp(-strike / 0.012) : exp(-(t - 1.6) / 0.15)
            envelope *= min(1, (2.5 - t) / 0.3) * min(1, t / 0.002)
            let f: Double = 1100
            let body = sin(2 * .pi * f * t) + 0.5 * sin(2 * .pi * f * 2.76 * t) + 0.25 * sin(2 * .pi * f * 5.4 * t)
            return 0.35 * envelope * body
        case .siren:
            // Rises 600→1100 Hz and falls back every 2 s; the phase runs on so there is no seam.
            let position = t.truncatingRemainder(dividingBy: 2) / 2
            let sweep = position < 0.5 ? position * 2 : 2 - position * 2
            sirenPhase += (600 + 500 * sweep) / sampleRate
            if sirenPhase >= 1 { sirenPhase -= 1 }
            return 0.42 * (sin(2 * .pi * sirenPhase) + 0.3 * sin(4 * .pi * sirenPhase))
        case .chime:
            // Westminster's first phrase on a soft bell, then a breath.
            let notes: (Double, Double, Double, Double) = (659.26, 523.25, 587.33, 392.0)
            var sum: Double = 0
            sum += Self.bell(notes.0, since: t)
            sum += Self.bell(notes.1, since: t - 0.5)
            sum += Self.bell(notes.2, since: t - 1.0)
            sum += Self.bell(notes.3, since: t - 1.5)
            return 0.4 * sum * min(1, (4 - t) / 0.3)
        }
    }

    /// 1 inside [0, length) with `edge`-long linear ramps, so beeps do not click.
    private static func gate(_ t: Double, length: Double, edge: Double) -> Double {
        guard t >= 0, t < length else { return 0 }
        return min(1, t / edge, (length - t) / edge)
    }

    /// The first three odd harmonics of a square wave at `cycles` (phase in turns).
    private static func square(_ cycles: Double) -> Double {
        let p = 2 * Double.pi * cycles.truncatingRemainder(dividingBy: 1)
        return sin(p) + sin(3 * p) / 3 + sin(5 * p) / 5
    }

    private static func bell(_ f: Double, since t: Double) -> Double {
        guard t >= 0 else { return 0 }
        let envelope = min(1, t / 0.005) * exp(-t / 0.7)
        return envelope * (sin(2 * .pi * f * t) + 0.4 * sin(4 * .pi * f * t) + 0.2 * sin(6 * .pi * f * t) + 0.1 * sin(2 * .pi * f * 4.16 * t))
    }
}
