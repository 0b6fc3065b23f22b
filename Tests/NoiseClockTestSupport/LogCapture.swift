import Logging
import Synchronization

/// Every message a `Logger` made by `logger(label:)` logs, in order, to check what a component
/// logs (and how often).
public final class LogCapture: Sendable {
    private let events = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    public init() {}

    public func logger(label: String) -> Logger {
        Logger(label: label) { _ in CapturingHandler(capture: self) }
    }

    /// The messages alone.
    public var messages: [String] { events.withLock { $0.map(\.message) } }

    /// Each message followed by its metadata as `key=value`, sorted by key.
    public var lines: [String] {
        events.withLock { events in
            events.map { event in
                let fields = event.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                return "\(event.message) \(fields)"
            }
        }
    }

    fileprivate func append(_ message: String, _ metadata: Logger.Metadata) { events.withLock { $0.append((message, metadata)) } }
}

private struct CapturingHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { capture.append(event.message.description, event.metadata ?? [:]) }
}
