import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// The wake curve in real samples from the mixer: an hour-long ramp from `start_volume`, the
/// pre-alarm sound rising over its minutes, and the crossfade to the alarm's sound. An hour is
/// too long to render whole in a test, so the mixer renders short windows at instants spread
/// over the ramp (its gain follows the scene's clock, not the samples rendered before).
@Suite struct WakeCurveTests {
    let t0 = Instant(seconds: 2_000_000)

    /// RMS level at `second` of a scene, measured over 0.5 s after the gain has settled.
    func level(_ mixer: Mixer, _ scene: AudioScene, at second: Double) -> Double {
        let start = t0.adding(milliseconds: Int64(second * 1000))
        let samples = TestSupport.mix(mixer, scene, from: start, seconds: 0.8)
        return rms(Array(samples.suffix(24000)))
    }

    @Test func hourLongRampRisesFromTheStartVolumeToTheAlarmVolume() {
        // White noise as the alarm's sound: a steady level, so every window measures the gain.
        let scene = AudioScene(alarm: .init(sound: "white", volume: 80, since: t0, rampSeconds: 3600, id: "a", startVolume: 30))
        let mixer = Mixer(library: try! TestSupport.library())
        let seconds = stride(from: 0.0, through: 3600.0, by: 300.0).map { $0 }
        // Each window is measured 0.3–0.8 s after the instant it starts at: shift it back by about
        // half that so the first measures the start and the last the end.
        let levels = seconds.map { level(mixer, scene, at: min(3600, max(0, $0 - 0.55))) }
        let startLevel = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 30))
        let endLevel = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 80))
        let first = decibels(levels.first! / startLevel), last = decibels(levels.last! / endLevel)
        print("hour ramp: start \(first) dB from start_volume, end \(last) dB from volume; levels \(levels.map { decibels($0 / endLevel) })")
        #expect(abs(first) < 1, "starts \(first) dB from start_volume 30 \(TestSupport.seedNote)")
        #expect(abs(last) < 1, "ends \(last) dB from volume 80 \(TestSupport.seedNote)")
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 }, "not rising: \(levels) \(TestSupport.seedNote)")
        // Linear in amplitude between the two gains: halfway it is at their mean.
        let middle = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 30) + AudioScene.gain(volume: 80)) / 2
        #expect(abs(decibels(levels[6] / middle)) < 1, "\(TestSupport.seedNote)")
    }

    /// The ramp starts where the sound does: an alarm first rendered 400 ms after its ring began
    /// (the audio thread's next period, a streamed file's first block) sounds as one rendered on
    /// time, from `start_volume`, not 400 ms up its curve (+9.0 dB without that); one first rendered 1.5 s
    /// after (the node restarted mid-ring) goes on where the curve is.
    @Test func aLateStartRampsFromTheStartVolumeAndARingUnderWayGoesOn() {
        let scene = AudioScene(alarm: .init(sound: "white", volume: 80, since: t0, rampSeconds: 2, id: "a", startVolume: 20))
        func level(firstRenderedAfter milliseconds: Int64) -> Double {
            let samples = TestSupport.mix(Mixer(library: try! TestSupport.library()), scene, from: t0.adding(milliseconds: milliseconds),
                seconds: 0.1)
            return rms(Array(samples[2880..<4800]))  // 60–100 ms in: after the voice's fade-in (≤ 42 ms)
        }
        let onTime = level(firstRenderedAfter: 0), late = level(firstRenderedAfter: 400), resumed = level(firstRenderedAfter: 1500)
        let curve = { (ms: Int64) in Double(scene.alarm!.gain(at: self.t0.adding(milliseconds: ms))) }
        let lateShift = decibels(late / onTime), resumedShift = decibels(resumed / onTime)
        let expectedResumed = decibels(curve(1580) / curve(80))
        print("ramp picked up 400 ms late: \(lateShift) dB from on time; 1.5 s late: \(resumedShift) dB (the curve: \(expectedResumed) dB)")
        #expect(abs(lateShift) < 0.5, "\(TestSupport.seedNote)")
        #expect(abs(resumedShift - expectedResumed) < 1, "\(TestSupport.seedNote)")
    }

    @Test func gainCurveIsMonotonicAndExactAtBothEnds() {
        let alarm = AudioScene.Alarm(sound: "white", volume: 70, since: t0, rampSeconds: 3600, startVolume: 10)
        let gains = stride(from: Int64(0), through: 3600, by: 1).map { alarm.gain(at: t0.adding(seconds: $0)) }
        #expect(gains.first == AudioScene.gain(volume: 10))
        #expect(gains.last == AudioScene.gain(volume: 70))
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func preAlarmSoundRisesThenCrossfadesToTheAlarmWithoutAClick() {
        let end = t0.adding(seconds: 600)
        let pre = AudioScene(preAlarm: .init(sound: "pink", volume: 60, start: t0, end: end))
        let mixer = Mixer(library: try! TestSupport.library())
        // Rising from silence over ten minutes.
        let times = Array(stride(from: 60.0, through: 599.0, by: 60.0))
        let levels = times.map { level(mixer, pre, at: $0 - 0.55) }
        let full = TestSupport.pinkRMS * Double(AudioScene.gain(volume: 60))
        // Each minute on the straight line from silence to the alarm volume. Pink noise's level
        // in a one-second window wanders by up to ±0.8 dB, so neighbours a minute apart (about
        // 1 dB up the line near the top) may not be in order; each sits on the line.
        for (time, level) in zip(times, levels) {
            let expected = full * (time - 0.55) / 600
            #expect(
                abs(decibels(level / expected)) < 1.5,
                "at \(time) s: \(decibels(level / expected)) dB off the rise: \(levels) \(TestSupport.seedNote)")
        }
        #expect(levels.last! > 8 * levels.first!, "pre-alarm not rising: \(levels) \(TestSupport.seedNote)")
        #expect(abs(decibels(levels.last! / (full * 540 / 600))) < 1, "\(TestSupport.seedNote)")

        // The last two seconds before the alarm, then the alarm (white, from start_volume 40) takes over.
        let before = TestSupport.mix(mixer, pre, from: end.adding(seconds: -2), seconds: 2)
        var ringing = pre
        ringing.preAlarm = nil
        ringing.alarm = .init(sound: "white", volume: 60, since: end, rampSeconds: 30, id: "a", startVolume: 40)
        let after = TestSupport.mix(mixer, ringing, from: end, seconds: 3)
        let samples = before + after
        // No click and no gap: in 20 ms windows, the level steps across the crossfade (the
        // alarm's first 2 s) are no larger than the steps of the steady pre-alarm sound in the 2 s
        // before it (the noise's own flutter, over an equally long stretch: a longer stretch of
        // noise holds a larger step by chance) plus 1 dB, and never fall towards silence.
        let env = TestSupport.envelope(samples, window: 960)
        let steps = zip(env.dropFirst(), env).map { abs(decibels($0 / $1)) }
        let steady = steps.prefix(98).max()!, crossing = steps.dropFirst(99).prefix(100).max()!
        print("crossfade: largest 20 ms step \(crossing) dB (steady sound: \(steady) dB), lowest level \(decibels(env.min()! / full)) dB from the "
            + "pre-alarm")
        #expect(crossing < steady + 1, "a step of \(crossing) dB at the crossfade \(TestSupport.seedNote)")
        #expect(env.min()! > 0.3 * min(full, TestSupport.whiteRMS * Double(AudioScene.gain(volume: 40))), "\(TestSupport.seedNote)")
        // Afterwards only the alarm's sound: flat white noise, not pink.
        let tail = Array(after.suffix(48000))
        let slope = Spectrum.slope(Spectrum.welch(tail), sampleRate: 48000, from: 100, to: 10_000).slope
        #expect(abs(slope) < 1, "\(TestSupport.seedNote)")
    }
}
