/// Why a test chime was not played.
public struct ChimeFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
