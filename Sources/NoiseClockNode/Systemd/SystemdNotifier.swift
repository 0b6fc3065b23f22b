import Glibc  // systemd is Linux-only

/// Talks to systemd's notify socket (`Type=notify`) without libsystemd: one datagram per message
/// to `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading `@`).
/// Every call is a no-op when the variable is unset, so the node runs the same outside systemd.
public struct SystemdNotifier: Sendable {
    /// The socket address as given (`/run/systemd/notify` or `@abstract`); nil outside systemd.
    public let socketPath: String?
    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`; nil when the watchdog is off
    /// (or `$WATCHDOG_PID` names another process).
    public let watchdogInterval: Duration?

    public init(environment: [String: String], processID: Int32 = getpid()) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        var interval: Duration?
        if path != nil, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            let forUs = environment["WATCHDOG_PID"].flatMap { Int32($0) }.map { $0 == processID } ?? true
            interval = forUs ? .microseconds(microseconds / 2) : nil
        }
        watchdogInterval = interval
    }

    public var isEnabled: Bool { socketPath != nil }

    /// `READY=1`, with an optional status line.
    public func ready(status: String? = nil) throws(SystemdNotifyError) {
        try send(["READY=1"] + (status.map { ["STATUS=" + Self.oneLine($0)] } ?? []))
    }

    public func watchdog() throws(SystemdNotifyError) { try send(["WATCHDOG=1"]) }

    public func stopping() throws(SystemdNotifyError) { try send(["STOPPING=1"]) }

    /// `STATUS=...`: shown by `systemctl status`.
    public func status(_ text: String) throws(SystemdNotifyError) { try send(["STATUS=" + Self.oneLine(text)]) }

    /// Sends the assignments as one datagram, newline-separated (sd_notify's format).
    public func send(_ assignments: [String]) throws(SystemdNotifyError) {
        guard let socketPath, !assignments.isEmpty else { return }
        let message = assignments.joined(separator: "\n")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemdNotifyError(operation: "socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Abstract names start with NUL (written `@`) and are not NUL-terminated; paths are.
        var pathBytes = Array(socketPath.utf8)
        let isAbstract = pathBytes.first == UInt8(ascii: "@")
        if isAbstract { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SystemdNotifyError(operation: "address", message: "NOTIFY_SOCKET is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count + (isAbstract ? 0 : 1)
        let sent = message.utf8CString.withUnsafeBytes { body in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(fd, body.baseAddress, body.count - 1, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
                }
            }
        }
        guard sent >= 0 else { throw SystemdNotifyError(operation: "sendto \(socketPath)", errno: errno) }
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
