import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Reads whether the kernel's clock is synchronised (`adjtimex`, a cheap syscall) at start and
/// every `pollSeconds`, and tells the loop when the answer changes: `~/time` carries it.
struct ClockSyncService: Service {
    let clock: NodeClock
    let inbox: NodeInbox
    var pollSeconds = 30

    func run() async throws {
        var last: Bool?? = .none
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let synced = clock.synced()
            if last != .some(synced) {
                inbox.send(.clockSync(synced))
                last = .some(synced)
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(pollSeconds)) }
        }
    }
}
