/// Keeps the loop seam's steps within the steady sound's own, at the output rate (after the rate
/// conversion, where they are heard and measured).
///
/// The seam is an equal-power crossfade (gains cos and sin): it keeps the level of an unrelated
/// tail and head, no 3 dB dip, but its step is the tail's and the head's at gains summing to √2
/// mid-fade, so it can step up to √2 × the recording's largest. Here every output step is
/// watched: outside the seam the largest of each second is remembered (the last
/// `windowSeconds`); from the seam's first frame on, no step may be larger than the largest of
/// that window. Where the crossfade steps further, the output follows it at that limit and
/// catches up when it slows or turns (brown noise: within a few samples, a fraction of a step
/// away). The limit is let go only once the seam and the block after it (the converter's delay)
/// are out and the output has caught up, so letting go is no step either.
struct SeamLimiter {
    /// How much steady sound before the seam sets the limit.
    static let windowSeconds = 30

    private let bucketFrames: Int
    /// The largest step of each second of steady sound, per channel, a ring of `windowSeconds`.
    private var largestLeft: [Float]
    private var largestRight: [Float]
    private var bucket = 0
    private var bucketFill = 0
    private var steadyFrames = 0
    private var previousLeft: Float = 0
    private var previousRight: Float = 0
    private var started = false
    private var limitLeft: Float = 0
    private var limitRight: Float = 0
    private var engaged = false
    private var releasing = false
    /// Output frames at the very start not taken for steady: the converter's warm-up from silence.
    private var warmUp: Int

    init(outputRate: Int, warmUpFrames: Int) {
        bucketFrames = outputRate
        largestLeft = Array(repeating: 0, count: Self.windowSeconds)
        largestRight = Array(repeating: 0, count: Self.windowSeconds)
        warmUp = warmUpFrames
    }

    /// The seam's first frames come next: from here no step goes beyond the steady sound's own.
    /// Nothing is limited if no steady sound was heard yet (a file shorter than the warm-up).
    mutating func engage() {
        // Still engaged from the seam before (a short file): the limit goes on through this one.
        if engaged { releasing = false }
        guard !engaged, steadyFrames > 0 else { return }
        engaged = true
        releasing = false
        limitLeft = largestLeft.max()!
        limitRight = largestRight.max()!
    }

    /// The seam and the converter's delay are out: the limit ends where the output has caught up.
    mutating func release() {
        if engaged { releasing = true }
    }

    /// Limits `count` stereo frames in place (while engaged), or learns their steps.
    mutating func process(_ frames: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let left = frames[2 * i], right = frames[2 * i + 1]
            guard started else {
                (previousLeft, previousRight, started) = (left, right, true)
                continue
            }
            if engaged {
                let limitedLeft = Self.limit(left, from: previousLeft, by: limitLeft)
                let limitedRight = Self.limit(right, from: previousRight, by: limitRight)
                frames[2 * i] = limitedLeft
                frames[2 * i + 1] = limitedRight
                (previousLeft, previousRight) = (limitedLeft, limitedRight)
                if releasing && limitedLeft == left && limitedRight == right { engaged = false }
                continue
            }
            if warmUp > 0 {
                warmUp -= 1
            } else {
                largestLeft[bucket] = max(largestLeft[bucket], abs(left - previousLeft))
                largestRight[bucket] = max(largestRight[bucket], abs(right - previousRight))
                steadyFrames += 1
                bucketFill += 1
                if bucketFill == bucketFrames {
                    bucketFill = 0
                    bucket = (bucket + 1) % Self.windowSeconds
                    largestLeft[bucket] = 0
                    largestRight[bucket] = 0
                }
            }
            (previousLeft, previousRight) = (left, right)
        }
    }

    /// `sample`, or as near it as a step of `limit` from `previous` goes.
    private static func limit(_ sample: Float, from previous: Float, by limit: Float) -> Float {
        let step = sample - previous
        if abs(step) <= limit { return sample }
        return step < 0 ? previous - limit : previous + limit
    }
}
