#if canImport(Glibc)
import Glibc
#endif
import NoiseClockThreads
import Synchronization

// The audio thread's side: copy from the ring, fade its edges, judge silence and stalls, level.
extension StationSource {
    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        if shared.offline { waitForFrames(frames) }
        let done = readRing(into: out, frames: frames)
        if shared.offline { shared.taken.signal() }
        if done < frames { (out + 2 * done).update(repeating: 0, count: 2 * (frames - done)) }
        track(out, done: done, frames: frames)
        level(out, done: done)
    }

    /// Offline: waits until the ring holds the block (and the edge held back, and the prime), or the station has
    /// been silent on the wire `stallSeconds` (then what there is plays, as live: a fade, silence).
    private func waitForFrames(_ frames: Int) {
        // The prime too, else `readRing` would play this block as silence while it primes; and
        // before the first audio, the leveller's first estimate (its first 400 ms measured), so
        // the start is levelled as a live mount's burst is.
        let first = shared.appliedGain.load(ordering: .relaxed) == 0
        let needed = max(frames + Self.edgeFrames, Int((first ? Self.firstLevelSeconds : Self.primeSeconds) * Double(outputRate)))
        var waited = 0.0
        while shared.ring.available < needed, waited < Double(Self.stallSeconds), !shared.stopped {
            shared.taken.signal()
            shared.delivered.wait(seconds: 0.1)
            waited += 0.1
        }
        shared.starved.store(waited >= Double(Self.stallSeconds), ordering: .relaxed)
    }

    /// Offline: the station gave nothing for `stallSeconds` (a reconnection that brings audio
    /// within that time is not this).
    var starved: Bool { shared.starved.load(ordering: .relaxed) }

    /// The leveller's gain, moved toward at most `levelDownDB` a second down and `levelUpDB` up,
    /// ramped across the block (no zipper); the first audio starts at the gain already measured.
    /// After `track`, which judges silence on the station's own samples.
    private func level(_ out: UnsafeMutablePointer<Float>, done: Int) {
        let target = Float(bitPattern: shared.levelGain.load(ordering: .relaxed))
        var applied = Float(bitPattern: shared.appliedGain.load(ordering: .relaxed))
        if applied == 0 {
            guard done > 0 else { return }
            applied = target
        }
        let seconds = Float(done) / Float(outputRate)
        let next = min(max(target, applied / pow(10, Self.levelDownDB * seconds / 20)), applied * pow(10, Self.levelUpDB * seconds / 20))
        if next != applied || applied != 1 {
            let step = (next - applied) / Float(max(done, 1))
            for index in 0..<done {
                let gain = applied + step * Float(index + 1)
                out[2 * index] *= gain
                out[2 * index + 1] *= gain
            }
        }
        shared.appliedGain.store(next.bitPattern, ordering: .relaxed)
    }

    /// Reads what the ring has for this block: nothing until `primeSeconds` are in it; the first
    /// `edgeFrames` of a run faded in; when the ring holds less than the block and the held-back
    /// edge, what is left with its end faded out, and the run ends (no click either way).
    private func readRing(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let edge = Self.edgeFrames
        if !shared.primed.load(ordering: .relaxed) {
            guard shared.ring.available >= Int(Self.primeSeconds * Double(outputRate)) else { return 0 }
            shared.primed.store(true, ordering: .relaxed)
            shared.fadeIn.store(0, ordering: .relaxed)
        }
        let available = shared.ring.available
        let done: Int
        if available >= frames + edge {
            done = shared.ring.read(into: out, count: frames)
        } else {
            done = shared.ring.read(into: out, count: min(frames, available))
            let fade = min(done, edge)
            for index in 0..<fade {
                let gain = Float(fade - 1 - index) / Float(edge)
                out[2 * (done - fade + index)] *= gain
                out[2 * (done - fade + index) + 1] *= gain
            }
            shared.primed.store(false, ordering: .relaxed)
        }
        let position = shared.fadeIn.load(ordering: .relaxed)
        if position < edge {
            let count = min(done, edge - position)
            for index in 0..<count {
                let gain = Float(position + index) / Float(edge)
                out[2 * index] *= gain
                out[2 * index + 1] *= gain
            }
            shared.fadeIn.store(position + count, ordering: .relaxed)
        }
        return done
    }

    /// The consumer's view of the station: audible or quiet, a stall (once it played: 5 s without
    /// decoded audio arriving, or the ring dry 5 s), digital silence.
    private func track(_ out: UnsafeMutablePointer<Float>, done: Int, frames: Int) {
        var peak: Float = 0
        for index in 0..<(2 * done) { peak = max(peak, abs(out[index])) }
        if peak >= Self.audibleThreshold {
            shared.quietFrames.store(0, ordering: .relaxed)
            shared.silentFrames.store(0, ordering: .relaxed)
            shared.audibleFrames.store(shared.audibleFrames.load(ordering: .relaxed) + frames, ordering: .relaxed)
            shared.everAudible.store(true, ordering: .relaxed)
            shared.renderCause.store(0, ordering: .relaxed)
        } else {
            shared.quietFrames.store(shared.quietFrames.load(ordering: .relaxed) + frames, ordering: .relaxed)
            shared.audibleFrames.store(0, ordering: .relaxed)
            if done > 0 {
                let silent = shared.silentFrames.load(ordering: .relaxed) + done
                shared.silentFrames.store(silent, ordering: .relaxed)
                let limit = shared.everAudible.load(ordering: .relaxed) ? Self.silentSeconds : Self.silentFirstSeconds
                if silent >= limit * outputRate { shared.renderCause.store(Self.index(of: "silent"), ordering: .relaxed) }
            }
        }
        guard shared.played.load(ordering: .relaxed) else { return }
        let silentFor = Int(Clocks.monotonicSeconds() * 1000) - shared.lastDelivery.load(ordering: .relaxed)
        if silentFor >= Self.stallSeconds * 1000 { shared.renderCause.store(Self.index(of: "stalled"), ordering: .relaxed) }
        if done == frames {
            shared.dryFrames.store(0, ordering: .relaxed)
        } else {
            let dry = shared.dryFrames.load(ordering: .relaxed) + frames - done
            shared.dryFrames.store(dry, ordering: .relaxed)
            if dry >= Self.stallSeconds * outputRate { shared.renderCause.store(Self.index(of: "stalled"), ordering: .relaxed) }
        }
    }
}
