import Glibc
import Logging
import NoiseClockCore
import Synchronization

/// The node's log sink: swift-log's `StreamLogHandler` lines on standard error, each escaped
/// whole (`LogText.escaped`: label, metadata and message alike) before it is written. One place
/// for every log line, so payload text reaching any logger (a command's field name, a topic, a
/// file name) can neither forge a line nor send a terminal sequence (issue 31, finding 8).
public struct EscapedStandardError: TextOutputStream, Sendable {
    /// Keeps lines from several threads whole.
    private static let lock = Mutex(())

    public init() {}

    /// `StreamLogHandler` writes each line in one call, ending in its own newline: that one stays.
    public mutating func write(_ string: String) {
        var scalars = string.unicodeScalars[...]
        let ends = scalars.last == "\n"
        if ends { scalars = scalars.dropLast() }
        let line = LogText.escaped(String(scalars)) + (ends ? "\n" : "")
        Self.lock.withLock { _ in
            var bytes = Array(line.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// The node's handler: `StreamLogHandler`'s format at `level`, through this sink.
    public static func handler(label: String, level: Logger.Level) -> StreamLogHandler {
        var handler = StreamLogHandler(label: label, stream: EscapedStandardError())
        handler.logLevel = level
        return handler
    }
}
