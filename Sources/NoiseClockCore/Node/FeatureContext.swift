/// What every feature is told when it handles a command or moves forward in time.
public struct FeatureContext: Sendable {
    public var now: Instant
    public var zone: ZoneRules
    public var locale: NodeLocale
    public var catalog: SoundCatalog

    public init(now: Instant, zone: ZoneRules, locale: NodeLocale, catalog: SoundCatalog) {
        self.now = now
        self.zone = zone
        self.locale = locale
        self.catalog = catalog
    }
}
