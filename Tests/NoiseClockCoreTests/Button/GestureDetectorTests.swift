import Testing
@testable import NoiseClockCore

/// Gestures from key downs and ups at given times (seconds on the caller's clock): no waiting.
@Suite struct GestureDetectorTests {
    let timing = ButtonTiming(holdSeconds: 1.0, doubleSeconds: 0.25)  // binary fractions: exact sums

    @Test func pressFiresOnceNoDoubleCanFollow() {
        var detector = GestureDetector(timing: timing)
        #expect(detector.down(at: 10.0) == [])
        #expect(detector.up(at: 10.125) == [])
        #expect(detector.deadline == 10.375)
        #expect(detector.expire(at: 10.25) == [])
        #expect(detector.expire(at: 10.375) == [.press])
        #expect(detector.deadline == nil)
    }

    @Test func secondDownWithinTheWindowIsADoubleOnItsDown() {
        var detector = GestureDetector(timing: timing)
        _ = detector.down(at: 10.0)
        _ = detector.up(at: 10.125)
        #expect(detector.down(at: 10.25) == [.double])
        // The second press, held long, is not also a hold; its release fires nothing.
        #expect(detector.expire(at: 12.0) == [])
        #expect(detector.up(at: 12.0) == [])
        #expect(detector.expire(at: 20.0) == [])
    }

    @Test func secondDownAfterTheWindowIsTwoPresses() {
        var detector = GestureDetector(timing: timing)
        _ = detector.down(at: 10.0)
        _ = detector.up(at: 10.125)
        #expect(detector.down(at: 10.5) == [.press])
        #expect(detector.up(at: 10.625) == [])
        #expect(detector.expire(at: 10.875) == [.press])
    }

    @Test func holdFiresBeforeReleaseOnce() {
        var detector = GestureDetector(timing: timing)
        _ = detector.down(at: 10.0)
        #expect(detector.deadline == 11.0)
        #expect(detector.expire(at: 10.875) == [])
        #expect(detector.expire(at: 11.0) == [.hold])
        #expect(detector.expire(at: 15.0) == [])
        #expect(detector.up(at: 15.0) == [])
        #expect(detector.expire(at: 16.0) == [])
    }

    @Test func autoRepeatChangesNothing() {
        var detector = GestureDetector(timing: timing)
        #expect(detector.key(value: 1, at: 10.0) == [])
        for step in 1...5 {
            #expect(detector.key(value: 2, at: 10.0 + Double(step) * 0.03) == [])
        }
        #expect(detector.key(value: 0, at: 10.25) == [])
        #expect(detector.expire(at: 10.5) == [.press])
    }

    @Test func pressOnlyButtonActsOnKeyDown() {
        var detector = GestureDetector(timing: timing, detectsDouble: false, detectsHold: false)
        #expect(detector.isPressOnly)
        #expect(detector.down(at: 10.0) == [.press])
        #expect(detector.deadline == nil)
        #expect(detector.up(at: 12.0) == [])
        #expect(detector.down(at: 12.1) == [.press])
    }

    @Test func withoutDoubleAPressFiresOnRelease() {
        var detector = GestureDetector(timing: timing, detectsDouble: false, detectsHold: true)
        _ = detector.down(at: 10.0)
        #expect(detector.up(at: 10.25) == [.press])
        _ = detector.down(at: 11.0)
        #expect(detector.expire(at: 12.0) == [.hold])
    }

    @Test func withoutHoldALongPressIsAPress() {
        var detector = GestureDetector(timing: timing, detectsDouble: true, detectsHold: false)
        _ = detector.down(at: 10.0)
        #expect(detector.deadline == nil)
        #expect(detector.up(at: 13.0) == [])
        #expect(detector.expire(at: 13.25) == [.press])
    }

    @Test func aLateCallStillFiresWhatWasDueFirst() {
        var detector = GestureDetector(timing: timing)
        _ = detector.down(at: 10.0)
        _ = detector.up(at: 10.125)
        // No expire call came in time: the next down first closes the earlier press.
        #expect(detector.down(at: 11.0) == [.press])
        #expect(detector.expire(at: 12.0) == [.hold])
    }

    @Test func resetDropsAPressInProgress() {
        var detector = GestureDetector(timing: timing)
        _ = detector.down(at: 10.0)
        detector.reset()
        #expect(detector.expire(at: 20.0) == [])
        #expect(detector.up(at: 20.0) == [])
    }
}
