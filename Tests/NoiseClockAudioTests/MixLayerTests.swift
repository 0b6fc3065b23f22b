import NoiseClockCore
import Testing
@testable import NoiseClockAudio

/// A mix's built-in layers take their gains and add their own frames (`MixLayer`) instead of
/// the mix's passes: the mix must still be each layer rendered alone, times its gain, summed.
@Suite struct MixLayerTests {
    static let rate = 48000

    static func generator(_ sound: String) -> any SoundSource {
        switch sound {
        case "rain": RainSound(sampleRate: rate, seed: 21)
        case "fan": FanSound(sampleRate: rate, seed: 22)
        case "white": WhiteNoise(seed: 23)
        default: BrownNoise(sampleRate: rate, seed: 24)
        }
    }

    /// Each layer alone, scaled and summed the plain way, against the mix, in blocks of odd sizes
    /// (the fan's groups of four frames split across blocks), with white noise (not a
    /// `MixLayer`) among the generators.
    @Test(arguments: [["brown", "rain", "fan"], ["fan", "white", "rain"], ["white", "brown"], ["white", "rain"], ["white", "fan"], ["rain"], ["fan"]])
    func aMixIsItsLayersSummed(sounds: [String]) throws {
        let gains: [Float] = [1, 0.43, 0.27]
        let layers = zip(sounds, gains).map { AudioScene.Layer(sound: $0, gain: $1) }
        let mix = try #require(MixSource(layers: layers, maxFrames: 512) { Self.generator($0) })
        let frames = 48000
        let (mixLeft, mixRight) = renderInBlocks(mix, frames: frames, blocks: [1, 7, 333, 512, 1000, 3])
        var sumLeft = [Float](repeating: 0, count: frames), sumRight = sumLeft
        for layer in layers {
            let (left, right) = renderChannels(Self.generator(layer.sound), frames: frames)
            for i in 0..<frames {
                sumLeft[i] += left[i] * layer.gain
                sumRight[i] += right[i] * layer.gain
            }
        }
        let peak = sumLeft.map(abs).max()!
        let worst = zip(mixLeft + mixRight, sumLeft + sumRight).map { abs($0 - $1) }.max()!
        // The gains taken in earlier round differently, and rain's gust glide (a float recursion
        // with a 50 000-frame time constant) carries its rounding along: within 0.1 % of the
        // peak (−60 dB; 0.01 dB of level). A layer overwritten or left unscaled is 30 % off and more.
        #expect(worst <= peak * 1e-3, "\(sounds): worst difference \(worst) against a peak of \(peak)")
        #expect(peak > 0.01)
    }

    /// `source` rendered in blocks of the sizes given, in turn, into separate channels.
    func renderInBlocks(_ source: any SoundSource, frames: Int, blocks: [Int]) -> (left: [Float], right: [Float]) {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * blocks.max()!)
        defer { buffer.deallocate() }
        var left: [Float] = [], right: [Float] = []
        var next = 0
        while left.count < frames {
            let count = min(blocks[next % blocks.count], frames - left.count)
            next += 1
            source.render(into: buffer, frames: count)
            for i in 0..<count {
                left.append(buffer[2 * i])
                right.append(buffer[2 * i + 1])
            }
        }
        return (left, right)
    }
}
