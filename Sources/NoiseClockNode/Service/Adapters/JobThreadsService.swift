import NoiseClockThreads
import ServiceLifecycle

/// The owner of the short-lived threads adapters start (station probes, the broker test, the
/// settings trials): at shutdown it refuses new ones, asks those still running to end (a probe's
/// sockets cut, a test's or a trial's next look sees `isStopping`) and joins them. Listed first,
/// so it stops last, after the loop and the web server that start them.
struct JobThreadsService: Service {
    let threads: [JobThreads]

    func run() async throws {
        try? await gracefulShutdown()
        for group in threads { group.stop() }
    }
}
