/// Mixes in the catalog: listed under `noise` with `"category": "mix"` and their layers, so
/// every place that takes a noise sound takes a mix, and `noiseLayers(of:)` says what to play.
extension SoundCatalog {
    /// This catalog with `mixes` appended to the noise sounds.
    public func including(_ mixes: [Mix]) -> SoundCatalog { with(\.mixes, mixes) }

    /// The one resolver of a noise sound id (a plain noise or a mix) into what the mixer plays:
    /// its layers with their linear gains relative to the noise volume; nil for an unknown id.
    /// A mix is scaled so its total power equals its loudest layer's alone: two equal layers
    /// are not twice as loud, and the sum keeps the headroom of one noise (no clipping).
    public func noiseLayers(of id: String) -> [AudioScene.Layer]? {
        if let mix = mixes.first(where: { $0.id == id }) { return Self.layers(of: mix) }
        return noise.contains { $0.id == id } || hasStation(id) ? [AudioScene.Layer(sound: id, gain: 1)] : nil
    }

    /// The mix with that id, if any.
    public func mix(_ id: String) -> Mix? { mixes.first { $0.id == id } }

    static func layers(of mix: Mix) -> [AudioScene.Layer] {
        let gains = mix.layers.map { AudioScene.gain(volume: $0.volume) }
        let power = gains.reduce(0) { $0 + $1 * $1 }
        let loudest = gains.max() ?? 0
        let scale = power > 0 ? loudest / power.squareRoot() : 0
        return zip(mix.layers, gains).map { AudioScene.Layer(sound: $0.sound, gain: $1 * scale) }
    }
}
