import NoiseClockThreads
import ServiceLifecycle

/// The owner of the short-lived threads adapters start (station probes, the broker test, the
/// settings trials): at shutdown it refuses new ones and joins those still running (each is
/// bounded: a probe's 8 s, a test's 5 s, a trial's next look within 100 ms). Listed first, so it
/// stops last, after the loop and the web server that start them.
struct JobThreadsService: Service {
    let threads: [JobThreads]

    func run() async throws {
        try? await gracefulShutdown()
        for group in threads { group.stop() }
    }
}
