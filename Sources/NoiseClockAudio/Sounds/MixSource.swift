import NoiseClockCore

/// A mix: its layers' sources summed, each at its gain (`SoundCatalog.noiseLayers` scales them so
/// the sum is as loud as the loudest layer alone). One more buffer pass per layer: a 3-layer
/// mix costs its layers' DSP plus a few multiply-adds per sample.
final class MixSource: SoundSource {
    private let layers: [(source: any SoundSource, gain: Float)]
    private let scratch: UnsafeMutablePointer<Float>
    private let capacity: Int

    /// nil when no layer can be played (their sounds have gone). `makeSource`: the mixer's, which
    /// makes built-in sounds and takes recordings prepared off the audio thread.
    init?(layers: [AudioScene.Layer], maxFrames: Int, makeSource: (String) -> (any SoundSource)?) {
        let playable = layers.compactMap { layer in makeSource(layer.sound).map { ($0, layer.gain) } }
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
            // The first layer straight into the block, scaled there: no clearing, one pass fewer.
            let (first, firstGain) = layers[0]
            first.render(into: block, frames: count)
            for i in 0..<(count * 2) { block[i] *= firstGain }
            for (source, gain) in layers.dropFirst() {
                source.render(into: scratch, frames: count)
                for i in 0..<(count * 2) { block[i] += scratch[i] * gain }
            }
            done += count
        }
    }
}
