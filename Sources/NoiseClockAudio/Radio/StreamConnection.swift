import CStream
import Glibc
import NoiseClockCore

/// One HTTP(S) connection to a station, run by libcurl on the caller's thread (a stream player's
/// or a probe's own, never the audio thread): redirects (at most `maxRedirects`, what the stream's
/// `StreamBudget` has left of its hops; http and https only), the
/// system CA store (or `stream.ca_file`), `Icy-MetaData: 1`, a 5 s connect timeout and 5 s
/// without a byte as `timeout`. The body's audio and ICY titles go to the handlers as they
/// arrive; `run` returns why it ended, in the contract's causes.
final class StreamConnection {
    struct Head: Equatable {
        var status = 0
        var contentType: String?
        var metaInterval: Int?
        var bitrateKbps: Int?
        var name: String?
    }

    enum End: Equatable {
        /// A handler asked to stop.
        case stopped
        /// The server closed the stream (a live station should not).
        case closed
        /// `dns`, `refused`, `timeout`, `http_<status>`, `tls`, `no_audio`.
        case failed(String)
    }

    let url: String
    let userAgent: String
    let caFile: String?
    let stallSeconds: Int
    let maxRedirects: Int
    /// The HTTP redirects the last `run` followed (hops on the stream's route).
    private(set) var redirects = 0
    /// The whole request's bound, connection to last byte (nil: none, as a live stream never ends):
    /// the station directory's answers must come within theirs (`RadioDirectory`).
    var totalMilliseconds: Int?

    init(url: String, userAgent: String, caFile: String? = nil, stallSeconds: Int = 5, maxRedirects: Int = StreamLimits.hops) {
        self.url = url
        self.userAgent = userAgent
        self.caFile = caFile
        self.stallSeconds = stallSeconds
        self.maxRedirects = maxRedirects
    }

    /// What the callbacks share: the handlers, the head being read, the ICY splitter.
    final class Context {
        var heads = StreamHeadReader()
        var head: Head { heads.head }
        var headerLines: [String] = []
        var redirects: Int { heads.redirects }
        var icy: IcyMetadataReader?
        let onHead: (Head) -> Bool
        let onAudio: (UnsafeRawBufferPointer) -> Bool
        let onTitle: (String?) -> Void
        let shouldStop: () -> Bool
        var stopped = false
        /// The thread's `StreamAddressRule`, and whether a socket was refused by it.
        var allowsLocal = false
        var forbidden = false
        /// The thread's `StreamSockets` (a player's): its sockets, for a stop to cut.
        var sockets: StreamSockets?
        /// `StreamFormatLimits.receiveLimit` (nil: none), and the bytes received since `started`.
        var receiveLimit: Int?
        var received = 0
        let started = Clocks.monotonicSeconds()

        init(onHead: @escaping (Head) -> Bool, onAudio: @escaping (UnsafeRawBufferPointer) -> Bool,
             onTitle: @escaping (String?) -> Void, shouldStop: @escaping () -> Bool) {
            self.onHead = onHead
            self.onAudio = onAudio
            self.onTitle = onTitle
            self.shouldStop = shouldStop
        }
    }

    /// Connects and reads until a handler says stop, `shouldStop` turns true, or the stream ends.
    /// `onHead` sees the final response's head before the first body byte (false: stop).
    func run(
        library: StreamLibrary, onHead: @escaping (Head) -> Bool, onAudio: @escaping (UnsafeRawBufferPointer) -> Bool,
        onTitle: @escaping (String?) -> Void, shouldStop: @escaping () -> Bool
    ) -> End {
        guard let curl = library.easyInit() else { return .failed("no_audio") }
        defer { library.easyCleanup(curl) }
        let context = Context(onHead: onHead, onAudio: onAudio, onTitle: onTitle, shouldStop: shouldStop)
        context.allowsLocal = StreamAddressRule.allowsLocal
        context.sockets = StreamSockets.current
        context.receiveLimit = StreamFormatLimits.receiveLimit
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = library.slistAppend(headers, "Icy-MetaData: 1")
        defer { library.slistFree(headers) }
        let pointer = { (option: CURLoption, value: UnsafeRawPointer?) in _ = noiseclock_curl_setopt_pointer(library.setopt, curl, option, value) }
        let long = { (option: CURLoption, value: Int) in _ = noiseclock_curl_setopt_long(library.setopt, curl, option, value) }
        // Strings are copied by libcurl (since 7.17), so these temporaries may go.
        url.withCString { pointer(CURLOPT_URL, $0) }
        userAgent.withCString { pointer(CURLOPT_USERAGENT, $0) }
        "http,https".withCString { pointer(CURLOPT_PROTOCOLS_STR, $0); pointer(CURLOPT_REDIR_PROTOCOLS_STR, $0) }
        if let caFile { caFile.withCString { pointer(CURLOPT_CAINFO, $0) } }
        pointer(CURLOPT_HTTPHEADER, headers)
        long(CURLOPT_FOLLOWLOCATION, 1)
        long(CURLOPT_MAXREDIRS, maxRedirects)
        long(CURLOPT_NOSIGNAL, 1)
        long(CURLOPT_CONNECTTIMEOUT, 5)
        long(CURLOPT_LOW_SPEED_LIMIT, 1)
        long(CURLOPT_LOW_SPEED_TIME, stallSeconds)
        long(CURLOPT_NOPROGRESS, 0)
        if let totalMilliseconds { long(CURLOPT_TIMEOUT_MS, totalMilliseconds) }
        let opaque = UnsafeRawPointer(unmanaged.toOpaque())
        pointer(CURLOPT_WRITEFUNCTION, unsafeBitCast(streamWrite as CurlWrite, to: UnsafeRawPointer.self))
        pointer(CURLOPT_WRITEDATA, opaque)
        pointer(CURLOPT_HEADERFUNCTION, unsafeBitCast(streamHeader as CurlWrite, to: UnsafeRawPointer.self))
        pointer(CURLOPT_HEADERDATA, opaque)
        pointer(CURLOPT_XFERINFOFUNCTION, unsafeBitCast(streamProgress as CurlProgress, to: UnsafeRawPointer.self))
        pointer(CURLOPT_XFERINFODATA, opaque)
        // Every socket (redirects' too) is judged by the address it is about to reach.
        pointer(CURLOPT_OPENSOCKETFUNCTION, unsafeBitCast(streamOpenSocket as CurlOpenSocket, to: UnsafeRawPointer.self))
        pointer(CURLOPT_OPENSOCKETDATA, opaque)
        if let sockets = context.sockets {
            // Closed through the registry (which `sockets` outlives: its player holds it), so a stop never touches a reused number.
            pointer(CURLOPT_CLOSESOCKETFUNCTION, unsafeBitCast(streamCloseSocket as CurlCloseSocket, to: UnsafeRawPointer.self))
            pointer(CURLOPT_CLOSESOCKETDATA, Unmanaged.passUnretained(sockets).toOpaque())
        }
        let code = library.easyPerform(curl)
        redirects = context.redirects
        if context.forbidden { return .failed("forbidden_address") }
        if context.stopped { return .stopped }
        if context.head.status >= 400 { return .failed("http_\(context.head.status)") }
        return Self.end(code)
    }

    static func end(_ code: CURLcode) -> End {
        switch code {
        case CURLE_OK: .closed
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .failed("dns")
        case CURLE_COULDNT_CONNECT: .failed("refused")
        case CURLE_OPERATION_TIMEDOUT: .failed("timeout")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_ISSUER_ERROR: .failed("tls")
        // More redirects than the route's hops left: a bound breached (mqtt-api v1.4).
        case CURLE_TOO_MANY_REDIRECTS: .failed("undecodable")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE: .failed("no_audio")
        default: .failed("no_audio")
        }
    }
}

typealias CurlWrite = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
typealias CurlOpenSocket = @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t
typealias CurlCloseSocket = @convention(c) (UnsafeMutableRawPointer?, curl_socket_t) -> Int32
typealias CurlProgress = @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32

/// libcurl's header callback: one line at a time, read by `StreamHeadReader`; the final
/// response's head goes to `onHead` before the first body byte.
private func streamHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let user else { return 0 }
    let context = Unmanaged<StreamConnection.Context>.fromOpaque(user).takeUnretainedValue()
    if let head = context.heads.read(UnsafeRawBufferPointer(start: data, count: size * count)) {
        context.icy = IcyMetadataReader(interval: head.metaInterval)
        if !context.onHead(head) {
            context.stopped = true
            return 0
        }
    }
    return size * count
}

/// libcurl's body callback: the audio past the ICY metadata to `onAudio`, titles to `onTitle`.
private func streamWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let user else { return 0 }
    let context = Unmanaged<StreamConnection.Context>.fromOpaque(user).takeUnretainedValue()
    // An error status's body (an HTML page) is not audio.
    if context.head.status >= 400 { return 0 }
    // When these bytes reached the socket (a stall is judged from it), before any pacing holds them.
    context.sockets?.received(size * count)
    context.pace(size * count)
    var keepGoing = true
    var icy = context.icy ?? IcyMetadataReader(interval: nil)
    icy.feed(UnsafeRawBufferPointer(start: data, count: size * count), audio: { chunk in
        if keepGoing, !context.onAudio(chunk) { keepGoing = false }
    }, title: context.onTitle)
    context.icy = icy
    if !keepGoing || context.shouldStop() {
        context.stopped = true
        return 0
    }
    return size * count
}

/// Called about once a second even while nothing arrives: lets a stop end a stalled transfer.
private func streamProgress(_ user: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    guard let user else { return 1 }
    let context = Unmanaged<StreamConnection.Context>.fromOpaque(user).takeUnretainedValue()
    if context.shouldStop() {
        context.stopped = true
        return 1
    }
    return 0
}

/// libcurl is about to open a socket to `address`: refused (`forbidden_address`) when the thread's
/// `StreamAddressRule` forbids it, else opened as libcurl would.
private func streamOpenSocket(_ user: UnsafeMutableRawPointer?, _: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let user, let address, let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr) else { return CURL_SOCKET_BAD }
    let context = Unmanaged<StreamConnection.Context>.fromOpaque(user).takeUnretainedValue()
    let target = (UnsafeRawPointer(address) + offset).assumingMemoryBound(to: sockaddr.self)
    if !context.allowsLocal, StreamAddressRule.isLocal(target, length: Int(address.pointee.addrlen)) {
        context.forbidden = true
        return CURL_SOCKET_BAD
    }
    let opened = socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    if opened >= 0, let sockets = context.sockets, !sockets.opened(opened) {
        _ = Glibc.close(opened)
        return CURL_SOCKET_BAD
    }
    return opened
}

/// libcurl closes a socket of a player's connection: through its `StreamSockets`.
private func streamCloseSocket(_ user: UnsafeMutableRawPointer?, _ socket: curl_socket_t) -> Int32 {
    guard let user else { return Glibc.close(socket) }
    return Unmanaged<StreamSockets>.fromOpaque(user).takeUnretainedValue().close(socket)
}

extension StreamConnection.Context {
    /// Holds the transfer while more than `receiveLimit` bytes a second (after a first
    /// `StreamFormatLimits.receiveBurstBytes`) have come, in 20 ms naps that end on a stop: bytes
    /// that decode to nothing cannot keep a core busy. Not libcurl's own limit, whose pause no
    /// stop can end (0.8 s after `noise/set OFF` under a title flood).
    func pace(_ bytes: Int) {
        guard let limit = receiveLimit else { return }
        received += bytes
        while !shouldStop() {
            let allowed = Double(StreamFormatLimits.receiveBurstBytes) + Double(limit) * (Clocks.monotonicSeconds() - started)
            if Double(received) <= allowed { return }
            usleep(20_000)
        }
    }
}
