import Glibc  // systemd is Linux-only

/// A notification that could not be sent; the node logs it and carries on.
public struct SystemdNotifyError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    init(operation: String, errno code: Int32) { message = "\(operation): \(String(cString: strerror(code)))" }
    init(operation: String, message: String) { self.message = "\(operation): \(message)" }

    public var description: String { "systemd notify: \(message)" }
}
