import Glibc
import NoiseClockThreads
import Synchronization

/// Publications that belong together (one input's new state and its response) leave in one TCP
/// segment. The owner opens a run around them (`MQTTClient.publishTogether`); the network thread
/// keeps its socket corked (`TCP_CORK`) through each loop iteration and, while a run is open,
/// until it ends, then writes what was queued and uncorks. Without it the thread, woken by the
/// first publication, wrote it alone: the broker forwarded the state and the response in two
/// wake-ups, and Home Assistant saw `~/response` a fraction of a millisecond after the state.
final class PublicationRun: Sendable {
    private let open = Mutex(0)
    private let ended = WakeSignal()

    func begin() { open.withLock { $0 += 1 } }

    func end() {
        open.withLock { $0 -= 1 }
        ended.signal()
    }

    var isOpen: Bool { open.withLock { $0 > 0 } }

    /// On the network thread: waits until no run is open (its publications are queued), at most
    /// `seconds` (a run lasts microseconds; the bound only keeps a stuck owner from stalling MQTT).
    func waitUntilClosed(seconds: Double) {
        let deadline = Self.monotonicSeconds() + seconds
        while isOpen {
            let left = deadline - Self.monotonicSeconds()
            guard left > 0 else { return }
            ended.wait(seconds: left)
        }
    }

    /// Holds (or releases and sends) what is written to `socket`; errors only cost the batching.
    static func cork(_ socket: Int32, _ on: Bool) {
        guard socket >= 0 else { return }
        var value: Int32 = on ? 1 : 0
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
