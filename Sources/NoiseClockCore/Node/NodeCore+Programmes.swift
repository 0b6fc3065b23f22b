/// The catalog every feature sees (the rules sleep programmes bring are in Rules/: `FeatureRule`).
extension NodeCore {
    /// The catalog every feature sees: the built-in and custom sounds, the mixes and the stations
    /// (none in safe mode: a station is network input, and may be what crashed the node).
    public var soundCatalog: SoundCatalog { catalog.including(mixes.mixes).including(settings.safeMode == nil ? stations.stations : []) }
}
