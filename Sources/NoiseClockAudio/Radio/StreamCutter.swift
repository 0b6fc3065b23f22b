/// Ends the probes run with it at once, from another thread: their sockets are shut
/// (`StreamSockets`), so a probe blocked on the network fails now rather than at its 8 s limit,
/// and the thread that owns it can join it without waiting (a node stopping).
public final class StreamCutter: Sendable {
    let sockets = StreamSockets()

    public init() {}

    /// Shuts every socket of the probes running with it, and of any started after.
    public func cut() { sockets.cut() }
}
