/// One client connection, touched only by the server thread.
final class WebConnection {
    enum Phase: Equatable {
        /// Reading a request's head (until `deadline`).
        case reading
        /// Access was checked: reading the command's body, which starts at `start` of `input`.
        case readingBody(command: String, start: Int, length: Int)
        /// Waiting for the node: a command's response or a snapshot for `/api/state`.
        case waiting
        /// The answer is queued; close once it is written.
        case closing
        /// An event stream waiting for its first snapshot.
        case streamStarting(snapshot: UInt64)
        case streaming
    }

    let id: UInt64
    let fd: Int32
    let address: String
    /// Whom the per-client limits and the throttle count this connection to (`ClientGroup`).
    let group: String
    var phase = Phase.reading
    var input: [UInt8] = []
    /// Bytes of `input` already scanned for the end of the headers.
    var scanned = 0
    var output: [UInt8] = []
    /// Milliseconds (monotonic): reading must end by then; for a stream, the next keep-alive.
    var deadline: Int64
    var isHead = false
    /// A stream's first event batch (the whole state) is not lag: a reader falls behind only by
    /// what comes after it (a large `~/sounds` closed every stream right after its head, issue 31).
    var stateBytes = 0
    /// The listening address it came through (`host:port`): a change of address is confirmed from the new one.
    var via = ""

    init(id: UInt64, fd: Int32, address: String, deadline: Int64) {
        self.id = id
        self.fd = fd
        self.address = address
        group = ClientGroup.of(address)
        self.deadline = deadline
    }

    var isStream: Bool {
        switch phase {
        case .streaming, .streamStarting: true
        default: false
        }
    }
}
