import NoiseClockCore

/// A mix: its layers' sources summed, each at its gain (`SoundCatalog.noiseLayers` scales them so
/// the sum is as loud as the loudest layer alone). A built-in generator (`MixLayer`) takes its
/// layer's gain into its own gains and adds its frames into the block as it makes them; any other
/// source costs a pass over the block (scaled, or rendered aside and added).
final class MixSource: SoundSource {
    private struct Layer {
        let source: any SoundSource
        /// The source itself when it adds its own frames (its gain already in it).
        let adding: (any MixLayer)?
        let gain: Float
    }

    private let layers: [Layer]
    private let scratch: UnsafeMutablePointer<Float>
    private let capacity: Int

    /// nil when no layer can be played (their sounds have gone). `makeSource`: the mixer's, which
    /// makes built-in sounds and takes recordings prepared off the audio thread.
    init?(layers: [AudioScene.Layer], maxFrames: Int, makeSource: (String) -> (any SoundSource)?) {
        let playable = layers.compactMap { layer -> Layer? in
            guard let source = makeSource(layer.sound) else { return nil }
            // A source made for this mix alone: its gain can be changed for good.
            guard let generator = source as? any MixLayer else { return Layer(source: source, adding: nil, gain: layer.gain) }
            generator.scaleOutput(by: layer.gain)
            return Layer(source: source, adding: generator, gain: 1)
        }
        guard !playable.isEmpty else { return nil }
        self.layers = playable
        capacity = maxFrames
        scratch = .allocate(capacity: maxFrames * 2)
    }

    deinit { scratch.deallocate() }

    func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(capacity, frames - done)
            let block = out + 2 * done
            // The first layer straight into the block (scaled there unless its gain is in it).
            let first = layers[0]
            first.source.render(into: block, frames: count)
            if first.adding == nil {
                for i in 0..<(count * 2) { block[i] *= first.gain }
            }
            for layer in layers.dropFirst() {
                if let generator = layer.adding {
                    generator.renderAdding(into: block, frames: count)
                    continue
                }
                layer.source.render(into: scratch, frames: count)
                for i in 0..<(count * 2) { block[i] += scratch[i] * layer.gain }
            }
            done += count
        }
    }
}
