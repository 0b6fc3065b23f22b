import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// Mixes against their layers: the sum never clips, is as loud (A-weighted) as its loudest layer
/// alone, keeps every layer in its spectrum, and switching to it is a crossfade without a gap.
@Suite struct MixLevelTests {
    let t0 = Instant(seconds: 1_000_000)
    static let rate = 48000

    static func catalog(_ library: SoundLibrary, _ layers: [Mix.Layer]) -> SoundCatalog {
        library.catalog.including([Mix(id: "m", name: "M", layers: layers)])
    }

    func render(_ library: SoundLibrary, sound: String, layers: [AudioScene.Layer], seconds: Double) -> [Float] {
        var scene = AudioScene(noise: .init(sound: sound, volume: 100))
        scene.noise?.layers = layers
        let mixer = Mixer(library: library)
        mixer.settle(scene, at: t0)
        return TestSupport.mix(mixer, scene, from: t0, seconds: seconds)
    }

    /// Rain at 70 over brown at 100, and three layers at full volume: the worst case for peaks.
    @Test(arguments: [
        [Mix.Layer(sound: "rain", volume: 70), Mix.Layer(sound: "brown", volume: 100)],
        [Mix.Layer(sound: "brown", volume: 100), Mix.Layer(sound: "pink", volume: 100), Mix.Layer(sound: "ocean", volume: 100)],
    ])
    func aMixIsAsLoudAsItsLoudestLayerAndNeverClips(layers: [Mix.Layer]) throws {
        let library = try TestSupport.library()
        let resolved = try #require(Self.catalog(library, layers).noiseLayers(of: "m"))
        let mix = render(library, sound: "m", layers: resolved, seconds: 30)
        let loudest = layers.max { $0.volume < $1.volume }!.sound
        var alone: [String: (peak: Double, level: Double)] = [:]
        for layer in layers {
            let samples = render(library, sound: layer.sound, layers: [], seconds: 30)
            alone[layer.sound] = (decibels(Double(samples.map { abs($0) }.max()!)), AWeightedLevel.decibels(samples, samples, sampleRate: Self.rate))
        }
        let peak = decibels(Double(mix.map { abs($0) }.max()!))
        let level = AWeightedLevel.decibels(mix, mix, sampleRate: Self.rate)
        let names = layers.map { "\($0.sound)@\($0.volume)" }.joined(separator: "+")
        let figures = alone.sorted { $0.key < $1.key }.map { "\($0.key) peak \(rounded($0.value.peak)) dBFS, \(rounded($0.value.level)) dB(A)" }
        print("mix \(names): peak \(rounded(peak)) dBFS, loudness \(rounded(level)) dB(A); alone: \(figures.joined(separator: "; "))")
        #expect(peak < -1, "the mix peaks at \(peak) dBFS \(TestSupport.seedNote)")
        #expect(
            abs(level - alone[loudest]!.level) <= 1,
            "mix \(level) dB(A) against its loudest layer's \(alone[loudest]!.level) \(TestSupport.seedNote)")
    }

    /// Each layer keeps its own part of the spectrum: brown's lows and rain's highs are both there,
    /// each near the share its gain gives it.
    @Test func bothLayersAreInTheSpectrum() throws {
        let library = try TestSupport.library()
        let layers = [Mix.Layer(sound: "rain", volume: 70), Mix.Layer(sound: "brown", volume: 100)]
        let resolved = try #require(Self.catalog(library, layers).noiseLayers(of: "m"))
        let mix = Spectrum.welch(render(library, sound: "m", layers: resolved, seconds: 20))
        let rain = Spectrum.welch(render(library, sound: "rain", layers: [], seconds: 20))
        let brown = Spectrum.welch(render(library, sound: "brown", layers: [], seconds: 20))
        func band(_ power: [Double], _ low: Double, _ high: Double) -> Double {
            let bin = Double(Self.rate) / 4096
            return power.enumerated().filter { Double($0.offset) * bin >= low && Double($0.offset) * bin < high }.map(\.element).reduce(0, +)
        }
        let rainGain = Double(resolved[0].gain), brownGain = Double(resolved[1].gain)
        // Octave bands from 31 Hz to 16 kHz: the mix matches the sum of its layers at their gains...
        var shares: [(rain: Double, brown: Double)] = []
        var low = 31.25
        while low < 16000 {
            let parts = (rain: rainGain * rainGain * band(rain, low, 2 * low), brown: brownGain * brownGain * band(brown, low, 2 * low))
            let measured = band(mix, low, 2 * low)
            #expect(
                abs(10 * log10(measured / (parts.rain + parts.brown))) < 1.5,
                "\(low) Hz octave: \(measured) against \(parts) \(TestSupport.seedNote)")
            shares.append((parts.rain / (parts.rain + parts.brown), parts.brown / (parts.rain + parts.brown)))
            low *= 2
        }
        // ...and each layer carries most of some octave, so a mix without it would differ there by
        // more than 3 dB: both layers are audible.
        #expect(shares.map(\.rain).max()! > 0.5 && shares.map(\.brown).max()! > 0.5, "\(shares) \(TestSupport.seedNote)")
    }

    @Test func switchingToAMixCrossfadesWithoutAGap() throws {
        let library = try TestSupport.library()
        let mixer = Mixer(library: library)
        let brown = AudioScene(noise: .init(sound: "brown", volume: 100))
        var mixed = AudioScene(noise: .init(sound: "m", volume: 100))
        mixed.noise?.layers = try #require(Self.catalog(library,
            [.init(sound: "rain", volume: 100), .init(sound: "white", volume: 60)]).noiseLayers(of: "m"))
        mixer.settle(brown, at: t0)
        let out = TestSupport.mix(mixer, brown, from: t0, seconds: 2.5) + TestSupport.mix(mixer, mixed, from: t0, seconds: 5)
        // Brown carries far more RMS than rain and white at equal loudness: the crossfade must not
        // dip below half of the quieter end (a gap), and no sample may jump much further than the
        // steady sounds themselves do (a click). The largest step of random noise grows with the
        // stretch it is taken over: each stretch is 2 s.
        let env = TestSupport.envelope(out, window: 4800)
        let quieter = min(env.first!, env.last!)
        #expect(env.min()! > 0.5 * quieter, "a gap in the crossfade: \(env) \(TestSupport.seedNote)")
        func steps(_ x: ArraySlice<Float>) -> Float { zip(x.dropFirst(), x).map { abs($0 - $1) }.max()! }
        let second = 48000
        let steady = max(steps(out[(second / 2)..<(5 * second / 2)]), steps(out[(11 * second / 2)..<(15 * second / 2)]))
        let crossing = steps(out[(5 * second / 2)..<(9 * second / 2)])
        #expect(crossing <= 1.5 * steady, "a click in the crossfade: \(crossing) against \(steady) \(TestSupport.seedNote)")
        #expect(out.allSatisfy { abs($0) < 1 })
    }

    private func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
