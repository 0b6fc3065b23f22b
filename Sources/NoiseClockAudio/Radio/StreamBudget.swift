/// One stream's share of `StreamLimits` (a player's, a `station/test`'s or a readiness probe's):
/// the route from the station's URL (hops: playlists, variants and HTTP redirects, at most
/// `StreamLimits.hops`; an address met twice is a playlist naming itself) and the back-off after
/// each request that ended without audio. Used by the stream's one thread.
final class StreamBudget {
    /// Why a route ended: each ends the stream as `undecodable`.
    enum Breach: Equatable {
        case tooManyHops
        case namesItself(String)
    }

    let stationURL: String
    private(set) var hops = 0
    private var visited: Set<String>
    private var backOff = StreamLimits.backOffFirstSeconds
    /// Requests that ended without audio (for the tests and the benchmark's count).
    private(set) var failedRequests = 0

    init(stationURL: String) {
        self.stationURL = stationURL
        visited = [Self.key(stationURL)]
    }

    /// HTTP redirects a connection on the route may still follow.
    var redirectsLeft: Int { max(0, StreamLimits.hops - hops) }

    /// A connection followed `count` HTTP redirects.
    func redirected(_ count: Int) -> Breach? {
        hops += max(0, min(count, StreamLimits.hops + 1))
        return hops > StreamLimits.hops ? .tooManyHops : nil
    }

    /// A playlist (or a master's variant) names `address`: nil when it may be followed.
    func hop(to address: String) -> Breach? {
        guard visited.insert(Self.key(address)).inserted else { return .namesItself(address) }
        hops += 1
        return hops > StreamLimits.hops ? .tooManyHops : nil
    }

    /// A new attempt starts again from the station's URL (the back-off is kept).
    func restartRoute() {
        hops = 0
        visited = [Self.key(stationURL)]
    }

    /// A request ended without audio: how long to wait before the next one (1 s doubling to 5 s).
    func failed() -> Double {
        failedRequests += 1
        defer { backOff = min(StreamLimits.backOffMostSeconds, backOff * 2) }
        return backOff
    }

    /// Audio was heard: the next failure waits the first back-off again.
    func heard() {
        backOff = StreamLimits.backOffFirstSeconds
    }

    /// Addresses compared without their fragment and the scheme's and host's case.
    static func key(_ address: String) -> String {
        let trimmed = address.prefix { $0 != "#" }
        guard let colon = trimmed.firstIndex(of: ":"), trimmed[colon...].hasPrefix("://") else { return String(trimmed) }
        let rest = trimmed[trimmed.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let path = rest[authorityEnd...]
        return trimmed[..<colon].lowercased() + "://" + rest[..<authorityEnd].lowercased() + (path.isEmpty ? "/" : String(path))
    }
}
