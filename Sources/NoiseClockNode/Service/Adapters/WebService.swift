import NoiseClockWeb
import ServiceLifecycle

/// Runs the web server for the life of the node; it stops before the loop does.
struct WebService: Service {
    let server: WebServer

    func run() async throws {
        try server.start()
        try? await gracefulShutdown()
        server.stop()
    }
}
