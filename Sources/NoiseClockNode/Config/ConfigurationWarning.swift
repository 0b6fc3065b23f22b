/// Something in the configuration that works but deserves attention; the caller logs it.
public struct ConfigurationWarning: Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "configuration warning: \(key): \(message)" }
}
