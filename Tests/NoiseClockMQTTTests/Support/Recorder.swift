import NoiseClockThreads
import Synchronization

/// Everything a callback thread reported, in order, and a way to wait for what a test expects:
/// `append` itself resumes the waiters whose condition now holds, so no test polls or sleeps;
/// the timeout is only an upper bound.
final class Recorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let check: @Sendable ([Element]) -> [Element]?
        let continuation: CheckedContinuation<[Element], any Error>
    }

    private struct State {
        var items: [Element] = []
        var waiters: [Waiter] = []
        var nextID = 0
        /// Waiters whose timeout fired before they were registered.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())

    func append(_ item: Element) {
        let ready = state.withLock { state -> [([Element], Waiter)] in
            state.items.append(item)
            var ready: [([Element], Waiter)] = []
            state.waiters.removeAll { waiter in
                guard let result = waiter.check(state.items) else { return false }
                ready.append((result, waiter))
                return true
            }
            return ready
        }
        for (result, waiter) in ready { waiter.continuation.resume(returning: result) }
    }

    var items: [Element] { state.withLock { $0.items } }
    var count: Int { state.withLock { $0.items.count } }

    /// The first `count` items from index `from` on that match, waiting up to `timeout` seconds.
    func collect(_ count: Int, from: Int = 0, timeout: Double = 5, _ what: String = "items",
                 where match: @escaping @Sendable (Element) -> Bool = { _ in true }) async throws -> [Element] {
        try await wait(timeout: timeout, what: "\(count) \(what)") { items in
            let found = items.dropFirst(from).lazy.filter(match).prefix(count)
            return found.count == count ? Array(found) : nil
        }
    }

    /// The first item from index `from` on that matches.
    @discardableResult
    func first(from: Int = 0, timeout: Double = 5, _ what: String = "item",
               where match: @escaping @Sendable (Element) -> Bool = { _ in true }) async throws -> Element {
        try await collect(1, from: from, timeout: timeout, what, where: match)[0]
    }

    /// What `check` returns once it returns something for the items so far, waiting up to `timeout` seconds.
    func wait(timeout: Double, what: String, until check: @escaping @Sendable ([Element]) -> [Element]?) async throws -> [Element] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let failure = "no \(what) within \(timeout) s"
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(timeout))
            guard !Task.isCancelled else { return }
            self?.expire(id, failure)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<[Element], any Error>? in
                if state.expired.remove(id) != nil { return .failure(TestFailure(failure)) }
                if let result = check(state.items) { return .success(result) }
                state.waiters.append(Waiter(id: id, check: check, continuation: continuation))
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    private func expire(_ id: Int, _ failure: String) {
        let (waiter, recent) = state.withLock { state -> (Waiter?, ArraySlice<Element>) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.expired.insert(id)
                return (nil, [])
            }
            return (state.waiters.remove(at: index), state.items.suffix(5))
        }
        waiter?.continuation.resume(throwing: TestFailure("\(failure); last seen: \(Array(recent))"))
    }
}
