/// The same search within 10 minutes is answered from here, not the directory (http-api v1.4):
/// Radio Browser asks its clients not to repeat requests, and a search-as-you-type page asks the
/// same few prefixes again and again. Bounded: at most `capacity` searches, the oldest gone first.
/// Times are milliseconds of any monotonic clock the owner passes in (a test passes its own).
public struct DirectorySearchCache: Sendable {
    public static let lifetimeMilliseconds: Int64 = 10 * 60 * 1000
    public static let capacity = 64

    private var entries: [StationSearchQuery: (stations: [DirectoryStation], at: Int64)] = [:]

    public init() {}

    /// The stations found for `query` within the lifetime before `now`, else nil.
    public func stations(for query: StationSearchQuery, now: Int64) -> [DirectoryStation]? {
        guard let entry = entries[query], now >= entry.at, now - entry.at < Self.lifetimeMilliseconds else { return nil }
        return entry.stations
    }

    public mutating func store(_ stations: [DirectoryStation], for query: StationSearchQuery, now: Int64) {
        entries = entries.filter { now >= $0.value.at && now - $0.value.at < Self.lifetimeMilliseconds }
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.at < $1.value.at }) {
            entries[oldest.key] = nil
        }
        entries[query] = (stations, now)
    }

    public var count: Int { entries.count }
}
