import Logging

extension SoundLibrary {
    /// The same built-in sounds with the recordings of `directory` instead (nil: none), for
    /// `audio.sounds_dir` changed while the node runs; their loudness is measured in the
    /// background (remembered in `stateDirectory`), as at start. Sources already playing go on.
    public func moved(to directory: String?, stateDirectory: String?, logger: Logger) -> SoundLibrary {
        guard let directory else {
            return SoundLibrary(definitions: definitions, customs: [], loudness: loudness, sampleRate: sampleRate, seeds: seeds)
        }
        let customs = Self.scan(directory, definitions: definitions, logger: logger)
        let store = loudness ?? LoudnessStore(stateDirectory: stateDirectory, logger: logger)
        store.measureInBackground(customs.map(\.path))
        return SoundLibrary(
            definitions: definitions, customs: customs, loudness: store, soundsDirectory: directory, sampleRate: sampleRate, seeds: seeds
        )
    }
}
