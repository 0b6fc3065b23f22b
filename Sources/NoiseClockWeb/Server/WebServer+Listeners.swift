#if canImport(Glibc)
import Glibc
#endif

extension WebServer {
    /// A listening address (`host:port`, as `web.host` and `web.port` give it).
    public struct Address: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { "\(host):\(port)" }
    }

    /// One listening socket (`fd` -1 until bound; a failed bind is tried again at `nextAttempt`).
    struct Listener: Equatable {
        var address: Address
        var fd: Int32 = -1
        var nextAttempt: Int64 = 0
    }

    // MARK: From any thread (never blocks)

    /// Listens on `addresses` from now: new ones are bound, the others closed (their open
    /// connections are answered as usual). A change of `web.port` or `web.host` listens on the
    /// old and the new address until it is confirmed or rolled back.
    public func listen(on addresses: [Address]) {
        post(.listen(addresses))
    }

    /// Why `address` cannot be listened on now (nil: it can; the probe's socket is closed at once).
    /// A `web.port` trial asks before it starts, so a port another program holds is reported at
    /// once instead of a trial that waits 60 s on an address that never answers.
    public static func listenProblem(_ address: Address) -> String? {
        do {
            close(try ListeningSocket.open(host: address.host, port: address.port))
            return nil
        } catch {
            return error.code == EADDRINUSE ? "port \(address.port) is taken (another program listens there)" : error.description
        }
    }

    /// Access from now: the token (nil: `auth: none`). Sessions of the old token end with it.
    public func setAccess(token: String?) {
        post(.access(token))
    }

    // MARK: On the server thread

    func listen(_ addresses: [Address]) {
        for listener in state.listeners where !addresses.contains(listener.address) {
            if listener.fd >= 0 { close(listener.fd) }
            logger.info("web app no longer listening", metadata: ["address": "\(listener.address)"])
        }
        state.listeners = addresses.map { address in state.listeners.first { $0.address == address } ?? Listener(address: address) }
        bindIfDue()
    }
}
