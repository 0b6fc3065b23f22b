#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Logging
import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// The node's HTTP server: one thread, `poll`, one request per connection, the event streams
/// kept open. Small on purpose (a bedside node's memory and build time; docs/web.md says why
/// not Hummingbird). It never blocks the node's loop: the loop only appends to `mailbox`.
public final class WebServer: @unchecked Sendable {
    // @unchecked Sendable: `state` is touched only by the server thread; everything shared
    // with other threads goes through `mailbox` (a `Mutex`) and the eventfd.

    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var node: WebStateView.NodeInfo
        /// The address people open (logged at start, without the token).
        public var announcedURL: String?
        public var maximumConnections = 64
        public var maximumStreams = 16
        /// What one client address may hold of those (no one address takes the web app away).
        public var maximumConnectionsPerAddress = 8
        public var maximumStreamsPerAddress = 4
        /// A request's headers must arrive within this of the connection (slow-loris clients
        /// are cut off)…
        public var headerMilliseconds: Int64 = 5_000
        /// …its body within this of the headers, and an answer be read within this.
        public var requestMilliseconds: Int64 = 10_000
        /// An event stream gets a comment line after this much silence.
        public var keepAliveMilliseconds: Int64 = 15_000
        public var snapshotMilliseconds: Int64 = 5_000
        public var bindRetryMilliseconds: Int64 = 30_000
        /// A stream whose client reads slower than the node publishes is closed when this much
        /// is queued beyond the state it started with.
        public var streamBufferLimit = 1 << 20

        public init(host: String, port: Int, node: WebStateView.NodeInfo) {
            self.host = host
            self.port = port
            self.node = node
        }
    }

    enum Mail {
        case observation(Observation)
        case snapshot(UInt64, [Observation])
        /// A command's response; the id is the waiting connection's.
        case reply(UInt64, Response)
        /// A whole answer for a waiting connection (`GET /api/stations/search`).
        case answer(UInt64, HTTPResponse)
        /// The addresses to listen on from now (`listen(on:)`).
        case listen([Address])
        /// The token from now (`setAccess(token:)`).
        case access(String?)
    }

    struct Mailbox {
        var items: [Mail] = []
        var stopping = false
        /// Set when the server thread fell so far behind that observations were dropped: the
        /// streams are closed, and browsers reconnect to a fresh snapshot.
        var overflowed = false
    }

    static let mailboxLimit = 10_000

    let options: Options
    let backend: any WebBackend
    let logger: Logger
    let clock: @Sendable () -> Int64
    let mailbox = Mutex(Mailbox())
    let wakeFD: Int32
    let thread = DedicatedThread(name: "web")
    let state: ServerState

    /// - Parameters:
    ///   - router: access and routes; lives on the server thread from here on.
    ///   - clock: monotonic milliseconds (injectable for tests of the throttle).
    public init(options: Options, router: WebRouter, backend: any WebBackend, logger: Logger,
                clock: @escaping @Sendable () -> Int64 = WebServer.monotonicMilliseconds) {
        self.options = options
        self.backend = backend
        self.logger = logger
        self.clock = clock
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        state = ServerState(router: router)
        state.listeners = [Listener(address: Address(host: options.host, port: options.port))]
    }

    deinit {
        close(wakeFD)
    }

    /// Starts the server thread (it binds, and keeps retrying if it cannot).
    public func start() throws(ThreadStartError) {
        try thread.start { [self] in run() }
    }

    /// Closes every connection and ends the thread.
    public func stop() {
        mailbox.withLock { $0.stopping = true }
        wake()
        thread.join()
    }

    // MARK: From the node's loop (any thread; never blocks)

    /// A publication of the node: goes to every event stream, and updates `/healthz`.
    public func observe(_ observation: Observation) {
        post(.observation(observation))
    }

    /// The answer to `WebBackend.requestSnapshot(id:)`.
    public func snapshot(_ id: UInt64, _ entries: [Observation]) {
        post(.snapshot(id, entries))
    }

    /// The response to a command `WebBackend.take(_:id:via:)` handed on.
    public func reply(_ id: UInt64, _ response: Response) {
        post(.reply(id, response))
    }

    /// The answer to `WebBackend.searchStations(id:query:)`.
    public func answer(_ id: UInt64, _ response: HTTPResponse) {
        post(.answer(id, response))
    }

    func post(_ mail: Mail) {
        let accepted = mailbox.withLock { box -> Bool in
            guard box.items.count < Self.mailboxLimit else {
                box.overflowed = true
                return false
            }
            box.items.append(mail)
            return true
        }
        if accepted { wake() }
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    public static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// What the server thread owns.
final class ServerState {
    var router: WebRouter
    /// Where the server listens: one address, two while a change of address waits for its confirmation.
    var listeners: [WebServer.Listener] = []
    var connections: [UInt64: WebConnection] = [:]
    var nextConnectionID: UInt64 = 1
    var nextSnapshotID: UInt64 = 1
    /// Snapshots asked for, by id: the connection waiting (nil: the start-up one for `/healthz`) and until when.
    var pendingSnapshots: [UInt64: (connection: UInt64?, deadline: Int64)] = [:]
    /// Commands handed to the node, by the id of the connection waiting for the reply: the answer
    /// it gets if the node stops first (`shutting_down`, its command and `request_id`).
    var pendingCommands: [UInt64: Response] = [:]
    var health = WebStateView.Health()
    /// One receive buffer for every connection (the thread reads one at a time).
    var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(router: WebRouter) {
        self.router = router
    }
}
