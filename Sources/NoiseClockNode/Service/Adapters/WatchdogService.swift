import ServiceLifecycle

/// Ticks the systemd watchdog through the loop (every half of `WatchdogSec`), so a loop that is
/// stuck misses its ticks and systemd restarts the node.
struct WatchdogService: Service {
    let interval: Duration
    let inbox: NodeInbox

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            inbox.watchdogTick()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
