/// A station that moved, found again (mqtt-api v1.4, "The station directory"): at a readiness
/// check the alarm's station (`stationID`) failed at `from`; the directory lists it now at `to`,
/// which the check heard play. The machine replaces the address when the station still has `from`
/// (nobody changed it meanwhile), and `~/stations` shows the new one.
public struct StationHeal: Sendable, Equatable {
    public var stationID: String
    public var from: String
    public var to: String

    public init(stationID: String, from: String, to: String) {
        self.stationID = stationID
        self.from = from
        self.to = to
    }
}

extension StationsFeature {
    /// Replaces the station's address when it is still `heal.from`; false when nothing changed. The
    /// new address passes what `station/update` would ask of it (the directory is input from outside).
    mutating func heal(_ heal: StationHeal) -> Bool {
        guard Station.isValidURL(heal.to), heal.to != heal.from, allowsLocalAddresses || !StationHost.isLocal(heal.to),
              let index = stations.firstIndex(where: { $0.id == heal.stationID && $0.url == heal.from }) else { return false }
        stations[index].url = heal.to
        return true
    }
}
