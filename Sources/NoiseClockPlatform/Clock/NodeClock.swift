import NoiseClockCore
import Synchronization

/// The node's time: the system's real-time clock plus an offset, which is 0 in production.
///
/// Tests move the node's time without waiting for it: the variable `NOISECLOCK_TEST_CLOCK_FILE`
/// names a file holding the offset in milliseconds as decimal text (absent or empty: 0). The test
/// writes it atomically (temporary file, then rename); `WakeTimer` watches the file and reports
/// each change as `.clockChanged`, exactly like a real clock step, after calling `reload()`.
/// Both processes read the same CLOCK_REALTIME, so the test knows the node's time to the
/// millisecond.
public final class NodeClock: Sendable {
    public static let environmentKey = "NOISECLOCK_TEST_CLOCK_FILE"

    /// The production clock: no offset file.
    public static let system = NodeClock(offsetFile: nil)

    /// The offset file, nil in production.
    public let offsetFile: String?
    private let offset: Atomic<Int64>

    public init(offsetFile: String?) {
        self.offsetFile = offsetFile
        offset = Atomic(offsetFile.map(Self.readOffset) ?? 0)
    }

    /// The clock `environment` asks for: `system` unless NOISECLOCK_TEST_CLOCK_FILE is set.
    public convenience init(environment: [String: String]) {
        let file = environment[Self.environmentKey].flatMap { $0.isEmpty ? nil : $0 }
        self.init(offsetFile: file)
    }

    /// Milliseconds added to the real-time clock.
    public var offsetMilliseconds: Int64 { offset.load(ordering: .acquiring) }

    public func now() -> Instant { WallClock.now().adding(milliseconds: offsetMilliseconds) }

    /// Reads the offset file again (the wake timer calls this when it changes).
    public func reload() {
        guard let offsetFile else { return }
        offset.store(Self.readOffset(offsetFile), ordering: .releasing)
    }

    /// The file's offset; a missing, empty or unreadable file means 0.
    static func readOffset(_ path: String) -> Int64 {
        guard let bytes = FileBytes.contents(of: path, limit: 64) else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return Int64(text) ?? 0
    }
}
