import CLinux
import Glibc
import NoiseClockCore
import Synchronization

/// Wakes the node at an absolute wall-clock instant, and tells it at once when the system clock
/// is set (NTP step, manual change), so alarms are re-planned instead of ringing late or twice.
///
/// A Linux `timerfd` on CLOCK_REALTIME armed with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET:
/// the kernel ends a pending read with ECANCELED when the clock jumps. A dedicated thread blocks
/// in `read` (never the cooperative pool) and reports through `events`.
public final class WakeTimer: @unchecked Sendable {
    // @unchecked Sendable: `fd` is immutable after init and timerfd_settime/read may be used
    // from different threads; `armedAt` and `stopped` live in a mutex.
    public enum Event: Sendable, Equatable {
        case wake
        case clockChanged
    }

    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let fd: Int32
    private let state = Mutex<(armedAt: Instant?, stopped: Bool)>((nil, false))
    private var thread: pthread_t?

    /// TFD_TIMER_CANCEL_ON_SET from <sys/timerfd.h>, not imported as a Swift constant.
    private static let cancelOnSet: Int32 = 1 << 1

    public init() throws(PlatformError) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard fd >= 0 else { throw PlatformError("timerfd_create failed: \(String(cString: strerror(errno)))") }
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    deinit { close(fd) }

    public func start() {
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, wakeTimerThreadMain, Unmanaged.passRetained(self).toOpaque())
        precondition(rc == 0, "could not start the timer thread: \(rc)")
        thread = handle
    }

    /// Arms the timer for `instant` (replacing any earlier arming). A past instant fires at once.
    public func arm(at instant: Instant) {
        state.withLock { $0.armedAt = instant }
        var spec = itimerspec()
        let ms = max(instant.milliseconds, 1)
        spec.it_value.tv_sec = Int(ms / 1000)
        spec.it_value.tv_nsec = Int(ms % 1000) * 1_000_000
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Self.cancelOnSet, &spec, nil)
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        arm(at: Instant(milliseconds: 1))
        if let thread { pthread_join(thread, nil) }
        thread = nil
        continuation.finish()
    }

    func runLoop() {
        var expirations: UInt64 = 0
        while !state.withLock({ $0.stopped }) {
            let n = read(fd, &expirations, MemoryLayout<UInt64>.size)
            if state.withLock({ $0.stopped }) { break }
            if n == MemoryLayout<UInt64>.size {
                continuation.yield(.wake)
            } else if n < 0 && errno == ECANCELED {
                // The clock was set. The timer stays armed but must be re-armed to be cancellable
                // again; the owner re-arms after re-planning.
                continuation.yield(.clockChanged)
                if let armed = state.withLock({ $0.armedAt }) { arm(at: armed) }
            } else if n < 0 && errno != EINTR {
                usleep(100_000)
            }
        }
    }
}

private func wakeTimerThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WakeTimer>.fromOpaque(context).takeRetainedValue().runLoop()
    return nil
}
