import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// The one ordered queue into the node's loop, and only into it: every adapter sends its inputs
/// here (MQTT messages, timer wake-ups, battery readings, audio status, the web app's commands and
/// snapshot requests, watchdog ticks). Nothing comes back through it: what the loop decides goes
/// out as effects (`EffectPerformer`), a web command's answer included (`NodeEffect.reply`).
///
/// A locked queue the loop's own thread sleeps on (`next`), not an `AsyncStream`: a sender's
/// thread (the timer's, the MQTT network thread) wakes the loop's thread directly, one hand-off.
/// Through a stream consumed with `cancelOnGracefulShutdown` a wake-up crossed four (the stream's
/// merge task and the loop task on the cooperative pool, each hop a futex wake and a context
/// switch): at 200 nodes firing at once that was a measurable part of the fire's CPU.
public final class NodeInbox: Sendable {
    enum Item: Sendable {
        case input(NodeInput)
        /// Time to tell systemd the loop is alive; sent through the loop so a stuck loop misses it.
        case watchdog
    }

    private struct Queue {
        /// Items not yet taken, from `head` on (taken slots are dropped when the queue empties).
        var items: [Item] = []
        var head = 0
        var finished = false
    }

    private let queue = Mutex(Queue())
    private let arrived = WakeSignal()

    public init() {}

    /// Queues an input for the loop. False once the loop has stopped: the input will never be
    /// planned, so a source waiting for an answer (the web app) answers `shutting_down` itself.
    @discardableResult
    public func send(_ input: NodeInput) -> Bool {
        enqueue(.input(input))
    }

    func watchdogTick() { _ = enqueue(.watchdog) }

    private func enqueue(_ item: Item) -> Bool {
        let queued = queue.withLock { queue -> Bool in
            guard !queue.finished else { return false }
            queue.items.append(item)
            return true
        }
        if queued { arrived.signal() }
        return queued
    }

    /// The next item, in order, waiting for one on the caller's thread (the loop's: never the
    /// cooperative pool); nil once `finish` was called, even with items left (as the loop stops
    /// taking inputs at shutdown).
    func next() -> Item? {
        while true {
            let taken = queue.withLock { queue -> Item?? in
                if queue.finished { return .some(nil) }
                guard queue.head < queue.items.count else { return nil }
                let item = queue.items[queue.head]
                queue.head += 1
                if queue.head == queue.items.count {
                    queue.items.removeAll(keepingCapacity: true)
                    queue.head = 0
                }
                return .some(item)
            }
            if let taken { return taken }
            // A signal sent between the look and the wait is kept: the wait returns at once.
            arrived.wait(seconds: 3600)
        }
    }

    /// Ends the queue: the loop stops taking inputs (a `next` waiting returns nil) and every
    /// later `send` says false.
    func finish() {
        queue.withLock { $0.finished = true }
        arrived.signal()
    }
}
