import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Polls the sysfs battery: cheap to read, so level and charging changes go out promptly.
/// Whether a reading is news is the core's decision (`BatteryPublisher`).
struct BatteryService: Service {
    let battery: SysfsBattery
    let inbox: NodeInbox
    let pollSeconds: Int

    func run() async throws {
        var battery = battery
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            inbox.send(.battery(battery.read()))
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(pollSeconds)) }
        }
    }
}
