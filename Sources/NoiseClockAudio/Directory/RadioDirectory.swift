import NoiseClockCore
import NoiseClockThreads

/// The station directory (`stream.directory_url`, Radio Browser's API; http-api and mqtt-api
/// v1.4): searches, looks a station up by its id, and tells the directory which station was
/// chosen. Over the radio's own HTTP client (`StreamConnection`: libcurl, the CA store or
/// `stream.ca_file`, and `StreamAddressRule` on every socket, so a directory on loopback needs
/// `stream.allow_local_addresses` as a station does). Every request is answered within
/// `limitMilliseconds` or fails; an answer is read to at most `RadioBrowserAnswer.maxBytes`.
/// Blocking: call from a thread of its own (`tellChosen` starts its own).
public struct RadioDirectory: Sendable {
    public var baseURL: String
    public var userAgent: String
    public var caFile: String?
    public var allowsLocalAddresses: Bool

    /// A request's whole bound: under the contract's 5 s with room for the thread and the reply.
    public static let limitMilliseconds = 4_500

    public init(baseURL: String, userAgent: String, caFile: String? = nil, allowsLocalAddresses: Bool = false) {
        // A trailing slash would make `//json/...`.
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.userAgent = userAgent
        self.caFile = caFile
        self.allowsLocalAddresses = allowsLocalAddresses
    }

    /// `/json/stations/search` with the query's filters, broken stations hidden, most voted first.
    public func search(_ query: StationSearchQuery) -> Result<[DirectoryStation], DirectoryFailure> {
        fetch(query.radioBrowserPath).flatMap { bytes in
            guard let stations = RadioBrowserAnswer.stations(bytes) else { return .failure(DirectoryFailure(cause: "not_json")) }
            return .success(Array(stations.prefix(query.limit)))
        }
    }

    /// `/json/stations/byuuid/<id>`: the station as the directory lists it now (nil: not listed).
    public func station(directoryID: String) -> Result<DirectoryStation?, DirectoryFailure> {
        guard DirectoryStation.isValidID(directoryID) else { return .success(nil) }
        return fetch("/json/stations/byuuid/" + directoryID).flatMap { bytes in
            guard let stations = RadioBrowserAnswer.stations(bytes) else { return .failure(DirectoryFailure(cause: "not_json")) }
            return .success(stations.first { $0.directoryID == directoryID })
        }
    }

    /// `/json/url/<id>` on a thread of `threads` (their owner joins it), its answer unread: Radio
    /// Browser counts a click for the station this way ("call this when a user chooses a
    /// station"). Returns at once; the request is bounded (`limitMilliseconds`).
    public func tellChosen(_ directoryID: String, on threads: JobThreads) {
        guard DirectoryStation.isValidID(directoryID) else { return }
        let directory = self
        _ = try? threads.start { _ = directory.fetch("/json/url/" + directoryID) }
    }

    /// One GET of `path`: the body of a 200 answer, or why not (the contract's causes, and
    /// `too_large`, `http_<status>`).
    func fetch(_ path: String) -> Result<[UInt8], DirectoryFailure> {
        guard case .success(let library) = StreamLibrary.shared else { return .failure(DirectoryFailure(cause: "no_http")) }
        return StreamAddressRule.allowingLocal(allowsLocalAddresses) {
            var body: [UInt8] = []
            var status = 0
            var tooLarge = false
            let connection = StreamConnection(url: baseURL + path, userAgent: userAgent, caFile: caFile, stallSeconds: 5)
            connection.totalMilliseconds = Self.limitMilliseconds
            let end = connection.run(library: library, onHead: { head in
                status = head.status
                return true
            }, onAudio: { chunk in
                guard body.count + chunk.count <= RadioBrowserAnswer.maxBytes else {
                    tooLarge = true
                    return false
                }
                body += chunk
                return true
            }, onTitle: { _ in }, shouldStop: { false })
            if tooLarge { return .failure(DirectoryFailure(cause: "too_large")) }
            switch end {
            case .closed where status == 200: return .success(body)
            case .closed, .stopped: return .failure(DirectoryFailure(cause: status == 0 ? "no_answer" : "http_\(status)"))
            case .failed(let cause): return .failure(DirectoryFailure(cause: cause))
            }
        }
    }
}

/// Why the directory gave no answer: `refused`, `dns`, `timeout`, `tls`, `http_<status>`,
/// `too_large`, `not_json`, `forbidden_address`… (for the log; the web app says `directory_unreachable`).
public struct DirectoryFailure: Error, Equatable, Sendable {
    public var cause: String

    public init(cause: String) { self.cause = cause }
}
