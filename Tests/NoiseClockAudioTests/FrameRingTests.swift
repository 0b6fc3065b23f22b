import Testing
@testable import NoiseClockAudio

/// The station's 16-bit ring (`FrameRing`, `sixteenBit`): what goes in comes out within one 16-bit
/// step, across the wrap; what was below one step (digital silence to `StationSource`'s rule)
/// stays exactly 0; past full scale is clipped and NaN (a broken decode) is 0, never a trap.
struct FrameRingTests {
    @Test func sixteenBitFramesComeBackWithinOneStepAcrossTheWrap() {
        let ring = FrameRing(capacity: 5, sixteenBit: true)
        var out = [Float](repeating: 9, count: 8)
        // Three frames in and out, then four: the second write wraps past the end.
        let first: [Float] = [0.5, -0.5, 0.25, -0.25, 0.999, -0.999]
        #expect(ring.write(first, count: 3) == 3)
        #expect(ring.read(into: &out, count: 3) == 3)
        for (got, sent) in zip(out, first) { #expect(abs(got - sent) <= 1.0 / 32767, "\(got) for \(sent)") }
        let second: [Float] = [0.1, 0.2, 0.3, 0.4, -0.1, -0.2, -0.3, -0.4]
        #expect(ring.write(second, count: 4) == 4)
        #expect(ring.space == 1)
        #expect(ring.read(into: &out, count: 8) == 4)
        for (got, sent) in zip(out, second) { #expect(abs(got - sent) <= 1.0 / 32767, "\(got) for \(sent)") }
    }

    @Test func belowOneStepIsSilenceAndOverloadsAreClippedNotTrapped() {
        let ring = FrameRing(capacity: 4, sixteenBit: true)
        let tiny = 0.9 / 32767 as Float
        let input: [Float] = [tiny, -tiny, 1.7, -3, .nan, .infinity, 0, -.infinity]
        #expect(ring.write(input, count: 4) == 4)
        var out = [Float](repeating: 9, count: 8)
        #expect(ring.read(into: &out, count: 4) == 4)
        #expect(out == [0, 0, 1, -1, 0, 1, 0, -1])
    }

    @Test func aFullRingTakesOnlyWhatFits() {
        let ring = FrameRing(capacity: 2, sixteenBit: true)
        #expect(ring.write([0.1, 0.1, 0.2, 0.2, 0.3, 0.3], count: 3) == 2)
        #expect(ring.available == 2 && ring.space == 0)
    }

    /// Writes and reads of every size against a plain queue, both kinds of ring, the gain
    /// applied: the two runs each side of the ring's end join without a gap or a repeat.
    @Test(arguments: [false, true]) func writesAndReadsOfEverySizeMatchAPlainQueue(sixteenBit: Bool) {
        let ring = FrameRing(capacity: 7, sixteenBit: sixteenBit)
        var queue: [Float] = []
        var next: Float = 0
        var out = [Float](repeating: 0, count: 20)
        for step in 0..<200 {
            let count = step % 9
            let frames = (0..<(2 * count)).map { i in Float(i % 2 == 0 ? 1 : -1) * (next + Float(i / 2)) / 1024 }
            let took = ring.write(frames, count: count, gain: 0.5)
            #expect(took == min(count, 7 - queue.count / 2))
            queue += frames.prefix(2 * took).map { $0 * 0.5 }
            next += Float(took)
            let want = (step * 5) % 10
            let got = ring.read(into: &out, count: want)
            #expect(got == min(want, queue.count / 2))
            for i in 0..<(2 * got) { #expect(abs(out[i] - queue[i]) <= (sixteenBit ? 1.0 / 32767 : 0)) }
            queue.removeFirst(2 * got)
        }
    }
}
