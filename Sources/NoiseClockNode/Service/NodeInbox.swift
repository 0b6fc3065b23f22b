import NoiseClockCore
import Synchronization

/// The one ordered queue into the node's loop. Every adapter feeds it (MQTT messages, timer
/// wake-ups, battery readings, audio status, watchdog ticks); a second command source such as
/// the web app calls `submit` and gets the command's `Response` back from the same loop.
public final class NodeInbox: Sendable {
    enum Item: Sendable {
        case input(NodeInput)
        /// Time to tell systemd the loop is alive; sent through the loop so a stuck loop misses it.
        case watchdog
    }

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    /// Requests waiting for their reply, by id.
    private let pending = Mutex<(nextID: UInt64, waiting: [UInt64: CheckedContinuation<Response, Never>])>((1, [:]))

    public init() {
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    public func send(_ input: NodeInput) { continuation.yield(.input(input)) }

    func watchdogTick() { continuation.yield(.watchdog) }

    /// Runs one command through the loop (parse, core, persist, publish) and returns its response.
    /// If the loop has stopped, the answer is an `internal_error` response rather than a hang.
    public func submit(command: String, payload: [UInt8]) async -> Response {
        await withCheckedContinuation { waiter in
            let id = pending.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.waiting[id] = waiter
                return id
            }
            if case .terminated = continuation.yield(.input(.request(LocalRequest(id: id, command: command, payload: payload)))) {
                reply(id, Response(command: command, requestID: nil, outcome: .failure(CommandError(.shuttingDown, "the node is shutting down"))))
            }
        }
    }

    /// Answers a request made with `submit` (the loop's `reply` effect).
    func reply(_ id: UInt64, _ response: Response) {
        pending.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: response)
    }

    /// Ends the queue; requests still waiting are answered so no caller hangs.
    func finish() {
        continuation.finish()
        let waiting = pending.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting
        }
        for (_, waiter) in waiting {
            waiter.resume(returning: Response(command: "", requestID: nil, outcome: .failure(CommandError(.shuttingDown, "the node is shutting down"))))
        }
    }
}
