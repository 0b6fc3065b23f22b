import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads
import NoiseClockWeb
import Synchronization

/// `GET /api/stations/search` (http-api v1.4): the same search within 10 minutes from the cache
/// (`DirectorySearchCache`), else asked of the directory on a thread of its own (the web server's
/// thread never waits on the internet) and answered through `WebServer.answer`: 200 with
/// `[{"directory_id", "name", "url", "codec", "bitrate_kbps", "country", "tags", "homepage"}]`, or
/// 502 `directory_unreachable` when the directory is down, silent or answers nonsense (within 5 s:
/// `RadioDirectory.limitMilliseconds`). At most `concurrentLimit` searches at once.
final class StationSearchDesk: Sendable {
    static let concurrentLimit = 4

    let directory: RadioDirectory
    /// Monotonic milliseconds (a test passes its own to age the cache).
    let clock: @Sendable () -> Int64
    let logger: Logger
    /// The server the answers go to (set once it exists: it is built with this desk inside).
    let server = Mutex<WebServer?>(nil)
    private let state = Mutex((cache: DirectorySearchCache(), running: 0))

    /// The searches' threads, joined by their owner (`JobThreadsService`) at shutdown.
    let threads = JobThreads(name: "directory-search")

    init(directory: RadioDirectory, clock: @escaping @Sendable () -> Int64 = WebServer.monotonicMilliseconds, logger: Logger) {
        self.directory = directory
        self.clock = clock
        self.logger = logger
    }

    /// Answers the waiting connection `id`, now from the cache or later from the directory.
    func search(id: UInt64, query: StationSearchQuery) {
        let now = clock()
        enum Next { case cached([DirectoryStation]), busy, ask }
        let next = state.withLock { state -> Next in
            if let stations = state.cache.stations(for: query, now: now) { return .cached(stations) }
            guard state.running < Self.concurrentLimit else { return .busy }
            state.running += 1
            return .ask
        }
        switch next {
        case .cached(let stations): answer(id, Self.found(stations))
        case .busy: answer(id, .error(503, code: "busy", "too many directory searches at once; try again"))
        case .ask:
            if (try? threads.start { [self] in ask(id: id, query: query) }) != true {
                state.withLock { $0.running -= 1 }
                answer(id, Self.unreachable("cannot start the search"))
            }
        }
    }

    private func ask(id: UInt64, query: StationSearchQuery) {
        let result = directory.search(query)
        let now = clock()
        state.withLock { state in
            state.running -= 1
            if case .success(let stations) = result { state.cache.store(stations, for: query, now: now) }
        }
        switch result {
        case .success(let stations): answer(id, Self.found(stations))
        case .failure(let failure):
            logger.warning("station directory unreachable", metadata: ["directory": "\(directory.baseURL)", "cause": "\(failure.cause)"])
            answer(id, Self.unreachable(failure.cause))
        }
    }

    private func answer(_ id: UInt64, _ response: HTTPResponse) {
        server.withLock { $0 }?.answer(id, response)
    }

    static func found(_ stations: [DirectoryStation]) -> HTTPResponse {
        .json(200, .array(stations.map(\.json)))
    }

    static func unreachable(_ cause: String) -> HTTPResponse {
        .error(502, code: "directory_unreachable", "the station directory did not answer (\(cause)); a station's address can still be typed")
    }
}

extension StreamSettings {
    /// The directory `stream.directory_url` names, with the stream players' User-Agent, CA file and
    /// address rule; nil when it is off.
    var directory: RadioDirectory? {
        directoryURL.map {
            RadioDirectory(baseURL: $0, userAgent: userAgent, caFile: caFile, allowsLocalAddresses: allowsLocalAddresses)
        }
    }
}
