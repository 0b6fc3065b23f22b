/// A gain that moves towards its target by at most `maxStep` per frame: every volume change,
/// start, stop and crossfade is a straight ramp, never a jump.
struct GainRamp {
    private(set) var current: Float
    var target: Float
    let maxStep: Float

    /// `fullScaleSeconds`: how long a swing from silence to full gain (1.0) takes.
    init(current: Float = 0, target: Float = 0, fullScaleSeconds: Float, sampleRate: Int) {
        self.current = current
        self.target = target
        maxStep = 1 / (fullScaleSeconds * Float(sampleRate))
    }

    var isSilent: Bool { current == 0 && target == 0 }

    /// Jumps straight to the target (offline rendering, which should start at full level).
    mutating func settle() { current = target }

    /// Adds `source × gain` into `mix` for `frames` stereo frames, ramping the gain.
    mutating func mix(_ source: UnsafePointer<Float>, into mix: UnsafeMutablePointer<Float>, frames: Int) {
        var gain = current
        let target = self.target, step = maxStep
        var i = 0
        // Ramp frame by frame until the target is reached...
        while i < frames, gain != target {
            let delta = target - gain
            gain = abs(delta) <= step ? target : gain + (delta > 0 ? step : -step)
            mix[2 &* i] += source[2 &* i] * gain
            mix[2 &* i &+ 1] += source[2 &* i &+ 1] * gain
            i &+= 1
        }
        // ...then a plain multiply-add for the rest.
        if gain != 0 {
            while i < frames {
                mix[2 &* i] += source[2 &* i] * gain
                mix[2 &* i &+ 1] += source[2 &* i &+ 1] * gain
                i &+= 1
            }
        }
        current = gain
    }
}
