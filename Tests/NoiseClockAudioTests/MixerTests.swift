import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// The mixer realises scenes: ramps, crossfades, ducking, sleep fade and previews.
@Suite struct MixerTests {
    let t0 = Instant(seconds: 1_000_000)
    let window = 480  // 10 ms

    @Test func rampIsMonotonicWithBoundedSteps() {
        var ramp = GainRamp(current: 0, target: 0.8, fullScaleSeconds: 2, sampleRate: 48000)
        let ones = [Float](repeating: 1, count: 2 * 48000 * 2)
        var out = [Float](repeating: 0, count: ones.count)
        ones.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { mix in ramp.mix(source.baseAddress!, into: mix.baseAddress!, frames: 96000) }
        }
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
        let steps = zip(left.dropFirst(), left).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 >= 0 }, "gain went down while rising")
        #expect(steps.max()! <= 1 / 96000 + 1e-7, "step \(steps.max()!) above bound")
        #expect(abs(left.last! - 0.8) < 1e-6, "did not reach the target")
        #expect(abs(left[48000 - 1] - 0.5) < 0.001, "rate is not 1/(2 s)")
    }

    @Test func noiseStartsWithAFadeAndVolumeChangesAreSmooth() throws {
        let mixer = Mixer(library: try TestSupport.library())
        let quiet = AudioScene(noise: .init(sound: "white", volume: 40))
        let loud = AudioScene(noise: .init(sound: "white", volume: 80))
        let first = TestSupport.mix(mixer, quiet, from: t0, seconds: 1)
        let second = TestSupport.mix(mixer, loud, from: t0.adding(seconds: 1), seconds: 1.5)
        let env = TestSupport.envelope(first + second, window: window)
        #expect(env[0] < 0.5 * env[40], "no fade-in \(TestSupport.seedNote)")
        let expectedQuiet = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 40))
        #expect(abs(decibels(env[80] / expectedQuiet)) < 1.5, "\(TestSupport.seedNote)")
        // Window to window (10 ms) the level moves by no more than the ramp allows plus the
        // noise's own flutter. The fade-in's first windows start from silence, where any ramp
        // is a large step in decibels, so the check starts once the level is halfway up.
        let audible = env.drop { $0 < 0.5 * expectedQuiet }
        let jumps = zip(audible.dropFirst(), audible).map { abs(decibels($0 / $1)) }
        #expect(jumps.max()! < 1.5, "a step of \(jumps.max()!) dB \(TestSupport.seedNote)")
        let expectedLoud = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 80))
        #expect(abs(decibels(env.last! / expectedLoud)) < 1.5, "\(TestSupport.seedNote)")
    }

    @Test func changingTheSoundCrossfadesWithoutAGap() throws {
        let mixer = Mixer(library: try TestSupport.library())
        let brown = AudioScene(noise: .init(sound: "brown", volume: 100))
        let white = AudioScene(noise: .init(sound: "white", volume: 100))
        mixer.settle(brown, at: t0)
        let out = TestSupport.mix(mixer, brown, from: t0, seconds: 0.5) + TestSupport.mix(mixer, white, from: t0, seconds: 3)
        let env = TestSupport.envelope(out, window: 9600)
        // Two uncorrelated sounds crossing linearly dip at most ~3 dB below the quieter (in
        // RMS: white, at equal loudness), never to silence.
        #expect(env.min()! > 0.5 * min(TestSupport.whiteRMS, TestSupport.brownRMS), "\(TestSupport.seedNote)")
        // And afterwards only white remains: flat, so high frequencies carry as much as low.
        let tail = Array(out.suffix(48000))
        let slope = Spectrum.slope(Spectrum.welch(tail), sampleRate: 48000, from: 100, to: 10_000).slope
        #expect(abs(slope) < 1, "\(TestSupport.seedNote)")
    }

    @Test func alarmDucksTheNoiseAndRampsUp() throws {
        let mixer = Mixer(library: try TestSupport.library())
        // Pink: brown noise's slow swings would blur the level comparisons in short windows.
        let noise = AudioScene.Noise(sound: "pink", volume: 100)
        mixer.settle(AudioScene(noise: noise), at: t0)
        let ringing = AudioScene(noise: noise, alarm: .init(sound: "beep", volume: 100, since: t0, rampSeconds: 4))
        let out = TestSupport.mix(mixer, ringing, from: t0, seconds: 6)
        // Beep is on for the first 0.4 s of every second: compare its on-phases over the ramp.
        let onLevels = (0..<6).map { second in rms(Array(out[(second * 48000 + 9600)..<(second * 48000 + 14400)])) }
        // Seconds 0–3 lie inside the 4 s ramp; later on-phases are at full level and only the
        // noise underneath tells them apart.
        let rampOnLevels = Array(onLevels.prefix(4))
        for (earlier, later) in zip(rampOnLevels, rampOnLevels.dropFirst()) { #expect(later > earlier, "\(TestSupport.seedNote)") }
        // In the beep's silent phase only the ducked noise is left.
        let offLevel = rms(Array(out[(5 * 48000 + 28800)..<(5 * 48000 + 43200)]))
        #expect(abs(decibels(offLevel / (TestSupport.pinkRMS * Double(AudioScene.duckFactor)))) < 2, "\(TestSupport.seedNote)")
    }

    @Test func sleepTimerFadesToSilence() throws {
        let mixer = Mixer(library: try TestSupport.library())
        let scene = AudioScene(noise: .init(sound: "pink", volume: 100, fadeOut: .init(start: t0.adding(seconds: 1), end: t0.adding(seconds: 3))))
        mixer.settle(scene, at: t0)
        let out = TestSupport.mix(mixer, scene, from: t0, seconds: 4)
        let env = TestSupport.envelope(out, window: 4800)
        #expect(env[5] > 0.8 * TestSupport.pinkRMS, "\(TestSupport.seedNote)")
        // Pink noise is seeded afresh each run and a 0.1 s window of it varies by tens of per cent:
        // compare the level over 0.3 s around each point (fade factor 1, ~0.75, ~0.25).
        func level(around window: Int) -> Double { env[(window - 1)...(window + 1)].reduce(0, +) / 3 }
        #expect(level(around: 25) < level(around: 15) && level(around: 15) < level(around: 5), "\(TestSupport.seedNote)")
        #expect(level(around: 25) < 0.5 * level(around: 5), "\(TestSupport.seedNote)")
        #expect(env[35] == 0)
    }

    @Test func previewReplacesTheNoiseThenRestoresIt() throws {
        let mixer = Mixer(library: try TestSupport.library())
        // Pink, not brown: a quarter second of brown noise is too short for a stable level estimate.
        let noise = AudioScene.Noise(sound: "pink", volume: 100)
        mixer.settle(AudioScene(noise: noise), at: t0)
        let preview = AudioScene(noise: noise, preview: .init(sound: "siren", volume: 100, until: t0.adding(seconds: 1)))
        let during = TestSupport.mix(mixer, preview, from: t0, seconds: 1)
        let after = TestSupport.mix(mixer, AudioScene(noise: noise), from: t0.adding(seconds: 1), seconds: 3)
        // The siren is a tone: its spectrum is peaky, unlike the noise; check level instead.
        #expect(rms(Array(during.suffix(9600))) > 2 * TestSupport.pinkRMS, "\(TestSupport.seedNote)")
        // The last second, well after the restore ramp.
        #expect(abs(decibels(rms(Array(after.suffix(96000))) / TestSupport.pinkRMS)) < 1.5, "\(TestSupport.seedNote)")
        #expect(mixer.isSilent == false)
    }

    @Test func unknownSoundsPlayNothing() throws {
        let mixer = Mixer(library: try TestSupport.library())
        let out = TestSupport.mix(mixer, AudioScene(noise: .init(sound: "../etc/passwd", volume: 100)), from: t0, seconds: 0.1)
        #expect(out.allSatisfy { $0 == 0 })
        #expect(mixer.isSilent)
    }
}
