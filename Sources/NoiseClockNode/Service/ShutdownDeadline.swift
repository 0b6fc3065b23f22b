#if canImport(Glibc)
import Glibc
#endif
import Logging
import NoiseClockMQTT
import NoiseClockThreads
import ServiceLifecycle
import Synchronization

/// Bounds a graceful shutdown whatever an adapter does. The services stop one by one in reverse
/// order, each waited for; one that never returns (a driver stuck in a write, a thread held in
/// `open`) would hold the process, and the services after it, forever, `offline` unpublished.
/// (ServiceGroup's `maximumGracefulShutdownDuration` only cancels tasks, which a thread blocked in a
/// system call never notices.)
/// Armed when the shutdown begins, this waits on a thread of its own (not the cooperative pool,
/// which a stuck adapter may be holding) for `graceSeconds`; if the node has not finished by
/// then it publishes `offline` (at most `offlineSeconds`; nothing when MQTT already said it) and
/// ends the process with status 1, the log saying why. The state files are safe: every write is
/// atomic, as after `kill -9`.
final class ShutdownDeadline: Sendable {
    /// A graceful shutdown takes well under a second here; three leave room on a busy Pi.
    static let graceSeconds = 3.0
    /// The offline message's QoS 1 round trip, or its giving up.
    static let offlineSeconds = 1.5

    private let mqtt: MQTTClient
    private let availabilityTopic: String
    private let logger: Logger
    private let thread = DedicatedThread(name: "shutdown-limit")
    private let wake = WakeSignal()
    private let finished = Atomic<Bool>(false)

    init(mqtt: MQTTClient, availabilityTopic: String, logger: Logger) {
        self.mqtt = mqtt
        self.availabilityTopic = availabilityTopic
        self.logger = logger
    }

    /// Starts the countdown (once; later calls do nothing).
    func arm() {
        do {
            try thread.start { [self] in run() }
        } catch {
            logger.error("shutdown not bounded", metadata: ["error": "\(error)"])
        }
    }

    /// The node finished in time: the countdown ends without a word.
    func disarm() {
        finished.store(true, ordering: .releasing)
        wake.signal()
        thread.join()
    }

    private func run() {
        let deadline = Self.monotonicSeconds() + Self.graceSeconds
        while !finished.load(ordering: .acquiring) {
            let left = deadline - Self.monotonicSeconds()
            if left <= 0 { break }
            wake.wait(seconds: left)
        }
        guard !finished.load(ordering: .acquiring) else { return }
        logger.error("shutdown not finished after \(Self.graceSeconds) s; publishing offline and exiting (status 1)")
        let published = WakeSignal()
        let publisher = DedicatedThread(name: "shutdown-offline")
        let (mqtt, topic) = (mqtt, availabilityTopic)
        do {
            try publisher.start {
                mqtt.shutdown(finalMessage: (topic, Array("offline".utf8), true))
                published.signal()
            }
            published.wait(seconds: Self.offlineSeconds)
        } catch {
            logger.error("offline not published", metadata: ["error": "\(error)"])
        }
        fflush(nil)
        // Not `exit`: its handlers would run beside the stuck thread, which may hold their locks.
        _exit(1)
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// Arms the deadline when the graceful shutdown reaches it: listed last, so it is the first
/// service told (and a cancelled group arms it too).
struct ShutdownDeadlineService: Service {
    let deadline: ShutdownDeadline

    func run() async throws {
        try? await gracefulShutdown()
        deadline.arm()
    }
}
