/// A time zone's rules: the UTC offset in force at any instant.
/// (Minimal version: fixed offsets only. The TZif-based rules replace the storage, keeping this API.)
public struct ZoneRules: Sendable, Equatable {
    public let identifier: String
    private let fixedOffset: Int

    public init(identifier: String, fixedOffset: Int) {
        self.identifier = identifier
        self.fixedOffset = fixedOffset
    }

    public static let utc = ZoneRules(identifier: "UTC", fixedOffset: 0)

    /// Seconds east of UTC in force at `seconds` since the epoch.
    public func offset(at seconds: Int64) -> Int { fixedOffset }
}
