import NoiseClockCore

/// A state file written by a newer release (its `version` above the one this node reads): the
/// node stops at start with exit status 2 and leaves the file as it is, rather than start without
/// the alarms it holds or move it aside (mqtt-api.md v1.3, Versions; docs/reliability.md).
public struct NewerStateFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let fileVersion: Int
    public let readableVersion: Int

    public var description: String {
        "state file \(path) is version \(fileVersion), written by a newer NoiseClock; this one (\(NoiseClockVersion.current)) "
            + "reads up to version \(readableVersion). Run the newer release again, or move the file away to start without it; "
            + "the file was left as it is"
    }

    /// Configuration's status: the node cannot start with what it was given.
    public static let exitCode: Int32 = ConfigurationError.exitCode
}
