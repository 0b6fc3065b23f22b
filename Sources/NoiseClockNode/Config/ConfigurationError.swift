/// Why the configuration cannot be used. The executable prints `description` and exits with `exitCode`.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The dotted key at fault (`mqtt.port`), or the file's path when the file itself is at fault.
    public var key: String
    /// What is wrong, in words a user can act on.
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// One line, e.g. `configuration error: mqtt.port: must be between 1 and 65535, got 70000`.
    public var description: String { "configuration error: \(key): \(message)" }

    /// The process exit status for invalid configuration (the contract's "exits with status 2").
    public static let exitCode: Int32 = 2
    public var exitCode: Int32 { Self.exitCode }
}
