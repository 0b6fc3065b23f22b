import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// The wake-up timer as a service: its thread reports deadlines reached and clock steps.
/// The loop arms it (an `arm` effect); this service only runs it and forwards what it says.
struct WakeTimerService: Service {
    let timer: WakeTimer
    let inbox: NodeInbox

    func run() async throws {
        timer.start()
        for await event in timer.events.cancelOnGracefulShutdown() {
            switch event {
            case .wake: inbox.send(.wake)
            case .clockChanged: inbox.send(.clockChanged)
            }
        }
        timer.stop()
    }
}
