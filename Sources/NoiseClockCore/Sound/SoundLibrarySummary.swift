/// What the sounds adapter reports after it read `sounds_dir` again (`NodeInput.soundsChanged`):
/// the new library's catalog and the number the adapter holds it under until the machine says to
/// use it (`NodeEffect.useSounds`). The library itself (open file names, loudness) stays in the
/// adapter: the machine only decides when it takes over.
public struct SoundLibrarySummary: Sendable, Equatable {
    /// Counts the libraries the adapter built since start, from 1.
    public var generation: UInt64
    /// The built-in sounds and the custom files of the new library.
    public var catalog: SoundCatalog

    public init(generation: UInt64, catalog: SoundCatalog) {
        self.generation = generation
        self.catalog = catalog
    }
}
