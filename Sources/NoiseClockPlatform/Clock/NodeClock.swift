import NoiseClockCore
import Synchronization

/// The node's time: the system's real-time clock plus an offset, which is 0 in production.
///
/// Tests move the node's time without waiting for it: the variable `NOISECLOCK_TEST_CLOCK_FILE`
/// names a file holding the offset in milliseconds as decimal text (absent or empty: 0). The test
/// writes it atomically (temporary file, then rename); `WakeTimer` watches the file and reports
/// each change as `.clockChanged`, exactly like a real clock step, after calling `reload()`.
/// Both processes read the same CLOCK_REALTIME, so the test knows the node's time to the
/// millisecond. A second word `synced` or `unsynced` in the file decides what `synced()` says
/// instead of the kernel (a test machine's kernel clock may be either; a Raspberry Pi without a
/// real-time clock is `unsynced` until NTP).
public final class NodeClock: Sendable {
    public static let environmentKey = "NOISECLOCK_TEST_CLOCK_FILE"

    /// The production clock: no offset file.
    public static let system = NodeClock(offsetFile: nil)

    /// The offset file, nil in production.
    public let offsetFile: String?
    private let offset: Atomic<Int64>
    /// 0: ask the kernel; 1: synced; 2: not.
    private let syncWord: Atomic<UInt8>

    public init(offsetFile: String?) {
        self.offsetFile = offsetFile
        let read = offsetFile.map(Self.read) ?? (offset: 0, sync: 0)
        offset = Atomic(read.offset)
        syncWord = Atomic(read.sync)
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
        let read = Self.read(offsetFile)
        syncWord.store(read.sync, ordering: .releasing)
        offset.store(read.offset, ordering: .releasing)
    }

    /// Whether the clock is synchronised: the kernel's word (`adjtimex`), unless the test clock's
    /// file says.
    public func synced() -> Bool? {
        switch syncWord.load(ordering: .acquiring) {
        case 1: true
        case 2: false
        default: ClockSync.read()
        }
    }

    static func readOffset(_ path: String) -> Int64 { read(path).offset }

    /// The file's offset (a missing, empty or unreadable file means 0) and its sync word.
    static func read(_ path: String) -> (offset: Int64, sync: UInt8) {
        guard let bytes = FileBytes.contents(of: path, limit: 64) else { return (0, 0) }
        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        let sync: UInt8 = words.dropFirst().contains("unsynced") ? 2 : words.dropFirst().contains("synced") ? 1 : 0
        return (words.first.flatMap { Int64($0) } ?? 0, sync)
    }
}
