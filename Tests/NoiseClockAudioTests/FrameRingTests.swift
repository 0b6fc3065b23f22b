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

    /// The eight-abreast conversion makes exactly the steps the one-sample rule makes: toward zero,
    /// clipped at ±32767, NaN 0; on whole steps, just under and over them, halves, and seeded
    /// random values.
    @Test func theVectorConversionMakesTheSameStepsAsTheScalarRule() {
        var values: [Float] = [0, -0, 1, -1, 2, -2, .nan, .infinity, -.infinity, 0.5 / 32767, -0.5 / 32767]
        for step in [1, 2, 3, 100, 1000, 16384, 32766, 32767] {
            let v = Float(step) / 32767
            values += [v, -v, v.nextUp, v.nextDown, -v.nextUp, -v.nextDown, (Float(step) + 0.5) / 32767, -(Float(step) + 0.5) / 32767]
        }
        var state: UInt64 = 7
        while values.count % 16 != 0 || values.count < 512 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Float(Int64(bitPattern: state) >> 40) / Float(1 << 23) * 1.1)
        }
        let ring = FrameRing(capacity: values.count / 2, sixteenBit: true)
        #expect(ring.write(values, count: values.count / 2, gain: 1) == values.count / 2)
        var out = [Float](repeating: 9, count: values.count)
        #expect(ring.read(into: &out, count: values.count / 2) == values.count / 2)
        for (value, got) in zip(values, out) {
            let scaled = value * 32767
            let step: Float = scaled.isNaN ? 0 : min(max(scaled, -32767), 32767).rounded(.towardZero)
            #expect((got * 32767).rounded() == step, "\(value): \(got * 32767), not \(step)")
        }
    }
}
