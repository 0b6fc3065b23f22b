import Synchronization

/// Topics subscribed beside the client's fixed `subscriptions`, by group (`devices`: the lamp's and
/// shaker's state topics, `buttons`: the MQTT buttons'), each group replaced as a whole while the
/// client runs (the web app re-binds a device). What the groups hold together is subscribed on
/// every (re)connect; a replacement while connected subscribes what came and unsubscribes what
/// went, at once. A topic in two groups, or also fixed, is unsubscribed only when none holds it.
///
/// One lock orders the connect's subscribing and a replacement: a replacement made while the
/// connect subscribes waits for it, then sends its difference (a subscription can never be lost
/// between the two).
final class BoundSubscriptions: Sendable {
    struct State {
        var groups: [String: [String]] = [:]
        /// The connection accepted (CONNACK) and its subscriptions sent: a replacement goes out now.
        var live = false

        var all: [String] {
            var seen: Set<String> = []
            return groups.keys.sorted().flatMap { groups[$0] ?? [] }.filter { seen.insert($0).inserted }
        }
    }

    private let state = Mutex(State())

    /// Runs `subscribe` with every grouped topic (on the network thread, after CONNACK), under the lock.
    func connecting(_ subscribe: ([String]) -> Void) {
        state.withLock { state in
            subscribe(state.all)
            state.live = true
        }
    }

    func disconnected() {
        state.withLock { $0.live = false }
    }

    /// Replaces `group`'s topics; while live, `apply(added, removed)` runs under the lock.
    func replace(_ group: String, with topics: [String], fixed: [String], apply: (_ added: [String], _ removed: [String]) -> Void) {
        state.withLock { state in
            let before = Set(state.all + fixed)
            state.groups[group] = topics.isEmpty ? nil : topics
            let now = state.all
            let after = Set(now + fixed)
            guard state.live else { return }
            let added = now.filter { !before.contains($0) }
            let removed = before.subtracting(after).sorted()
            if !added.isEmpty || !removed.isEmpty { apply(added, removed) }
        }
    }

    /// Every topic the groups hold now.
    var topics: [String] { state.withLock { $0.all } }
}
