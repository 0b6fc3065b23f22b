#if canImport(Glibc)
import Glibc
#endif
import NoiseClockPlatform

/// One HTTP/1.1 request to the node's own web app, for `noiseclock restore` while the node runs:
/// a blocking socket, `Connection: close`, the answer read until the node closes.
struct LocalWebRequest {
    struct Reply {
        var status: Int
        var body: [UInt8]
    }

    var host: String
    var port: Int
    var timeoutSeconds = 30

    /// The address to reach a node listening on `host` (every address: the loopback one).
    static func reachable(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "::1"
        default: host
        }
    }

    func post(_ path: String, body: [UInt8], bearer: String?) throws(PlatformError) -> Reply {
        var head = "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let fd = try connect()
        defer { close(fd) }
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw PlatformError("cannot send to \(host):\(port): \(String(cString: strerror(errno)))") }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            answer += buffer.prefix(n)
        }
        return try Self.parse(answer, from: "\(host):\(port)")
    }

    private func connect() throws(PlatformError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw PlatformError("cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let fd = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if fd >= 0 {
                var time = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return fd }
                failure = String(cString: strerror(errno))
                close(fd)
            }
            entry = current.pointee.ai_next
        }
        throw PlatformError("cannot connect to the web app at \(host):\(port): \(failure)")
    }

    /// The status and body of a whole answer (the node always sends `Content-Length` and closes).
    static func parse(_ answer: [UInt8], from address: String) throws(PlatformError) -> Reply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }),
              let line = String(decoding: answer[..<end], as: UTF8.self).split(separator: "\r\n").first,
              let status = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw PlatformError("no HTTP answer from \(address)") }
        return Reply(status: status, body: Array(answer[(end + separator.count)...]))
    }
}
