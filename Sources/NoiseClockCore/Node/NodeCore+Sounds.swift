extension NodeCore {
    /// After `catalog` changed: the noise drops a sound that left it. Returns why, if it did.
    mutating func soundsChanged() -> String? {
        noise.soundsChanged(catalog: soundCatalog)
    }
}
