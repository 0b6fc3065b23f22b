/// Stations in the catalog: each is a sound, `radio:<id>`, taken wherever a noise or alarm sound
/// is (noise, alarm, pre-alarm, routine, timer) but never as a mix layer, and listed in
/// `~/sounds` under `radio`.
extension SoundCatalog {
    /// This catalog with `stations` as radio sounds.
    public func including(_ stations: [Station]) -> SoundCatalog { with(\.stations, stations) }

    /// Whether `id` names one of the stations (`radio:<id>`).
    public func hasStation(_ id: String) -> Bool {
        guard let station = Station.stationID(ofSound: id) else { return false }
        return stations.contains { $0.id == station }
    }

    /// The station a sound id names, if it is one of them.
    public func station(ofSound id: String) -> Station? {
        guard let station = Station.stationID(ofSound: id) else { return nil }
        return stations.first { $0.id == station }
    }

    /// `~/sounds`' `radio` list: `{"id": "radio:<id>", "name", "category": "radio"}`.
    var radioEntries: [Entry] { stations.map { Entry(id: $0.soundID, name: $0.name, category: Station.category) } }
}
