import NoiseClockCore

/// The one ordered queue into the node's loop, and only into it: every adapter sends its inputs
/// here (MQTT messages, timer wake-ups, battery readings, audio status, the web app's commands and
/// snapshot requests, watchdog ticks). Nothing comes back through it: what the loop decides goes
/// out as effects (`EffectPerformer`), a web command's answer included (`NodeEffect.reply`).
public final class NodeInbox: Sendable {
    enum Item: Sendable {
        case input(NodeInput)
        /// Time to tell systemd the loop is alive; sent through the loop so a stuck loop misses it.
        case watchdog
    }

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation

    public init() {
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Queues an input for the loop. False once the loop has stopped: the input will never be
    /// planned, so a source waiting for an answer (the web app) answers `shutting_down` itself.
    @discardableResult
    public func send(_ input: NodeInput) -> Bool {
        if case .terminated = continuation.yield(.input(input)) { return false }
        return true
    }

    func watchdogTick() { continuation.yield(.watchdog) }

    /// Ends the queue: the loop has stopped taking inputs.
    func finish() {
        continuation.finish()
    }
}
