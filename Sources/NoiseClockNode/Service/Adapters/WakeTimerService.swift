import NoiseClockPlatform
import ServiceLifecycle

/// The wake-up timer as a service: runs its thread, whose events (deadlines reached, clock
/// steps) go straight into the inbox (the handler `NodeApplication` gives the timer). The loop
/// arms it (an `arm` effect); this service only starts and stops it.
struct WakeTimerService: Service {
    let timer: WakeTimer

    func run() async throws {
        timer.start()
        // Events need no task of ours: the timer's thread hands them to the inbox itself.
        try? await gracefulShutdown()
        timer.stop()
    }
}
