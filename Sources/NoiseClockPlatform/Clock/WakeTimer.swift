import CLinux
import Glibc
import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// Wakes the node at an absolute instant of its `NodeClock`, and tells it at once when the clock
/// is set (NTP step, manual change, or a test moving the clock's offset), so alarms are
/// re-planned instead of ringing late or twice.
///
/// A Linux `timerfd` on CLOCK_REALTIME armed with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET at
/// (deadline − the clock's offset): the kernel ends a pending read with ECANCELED when the system
/// clock jumps. When the clock has an offset file, an inotify watch on its folder reports a new
/// offset the same way. A dedicated thread waits for both in `poll` (never the cooperative pool)
/// and reports each event to `onEvent`, on that thread: the node's handler puts it straight into
/// its inbox, so a wake reaches the loop's thread in one hand-off.
public final class WakeTimer: @unchecked Sendable {
    // @unchecked Sendable: `fd`, `watch` and `handler` are immutable after init and timerfd_settime/read may
    // be used from different threads; `armedAt` and `stopped` live in a mutex; `thread` keeps its
    // handle under its own lock.
    public enum Event: Sendable, Equatable {
        case wake
        case clockChanged
    }

    /// Where events go (see `init`).
    private let handler: @Sendable (Event) -> Void
    private let clock: NodeClock
    private let fd: Int32
    /// The inotify descriptor watching the offset file's folder, or -1 without an offset file.
    private let watch: Int32
    private let state = Mutex<(armedAt: Instant?, stopped: Bool)>((nil, false))
    private let thread = DedicatedThread(name: "wake-timer")

    /// TFD_TIMER_CANCEL_ON_SET from <sys/timerfd.h>, not imported as a Swift constant.
    private static let cancelOnSet: Int32 = 1 << 1

    /// - Parameter onEvent: called on the timer's thread with each event, in order. It must only
    ///   hand the event on (e.g. to the node's inbox or a stream), never block.
    public init(clock: NodeClock = .system, onEvent: @escaping @Sendable (Event) -> Void) throws(PlatformError) {
        self.clock = clock
        handler = onEvent
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
        guard fd >= 0 else { throw PlatformError("timerfd_create failed: \(String(cString: strerror(errno)))") }
        if let file = clock.offsetFile {
            watch = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
            let folder = Self.folder(of: file)
            guard watch >= 0, inotify_add_watch(watch, folder, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) >= 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                if watch >= 0 { close(watch) }
                throw PlatformError("cannot watch \(folder) for \(NodeClock.environmentKey): \(reason)")
            }
        } else {
            watch = -1
        }
    }

    deinit {
        close(fd)
        if watch >= 0 { close(watch) }
    }

    /// Starts the thread that waits for the timer. Without it the node cannot wake for alarms:
    /// a failure to start it is fatal.
    public func start() {
        do {
            try thread.start { [self] in runLoop() }
        } catch {
            fatalError("could not start the timer thread: \(error)")
        }
    }

    /// Arms the timer for `instant` on the node's clock (replacing any earlier arming). A past
    /// instant fires at once.
    public func arm(at instant: Instant) {
        state.withLock { $0.armedAt = instant }
        setTimer(realtimeMilliseconds: instant.milliseconds - clock.offsetMilliseconds)
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        setTimer(realtimeMilliseconds: 1)
        thread.join()
    }

    private func setTimer(realtimeMilliseconds: Int64) {
        var spec = itimerspec()
        let ms = max(realtimeMilliseconds, 1)
        spec.it_value.tv_sec = Int(ms / 1000)
        spec.it_value.tv_nsec = Int(ms % 1000) * 1_000_000
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Self.cancelOnSet, &spec, nil)
    }

    /// After a clock change the timer must be re-armed to be cancellable again (and, for a new
    /// offset, to fire at the right real time); the owner also re-arms after re-planning.
    private func clockChanged() {
        handler(.clockChanged)
        if let armed = state.withLock({ $0.armedAt }) { arm(at: armed) }
    }

    func runLoop() {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        if watch >= 0 { fds.append(pollfd(fd: watch, events: Int16(POLLIN), revents: 0)) }
        while !state.withLock({ $0.stopped }) {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if state.withLock({ $0.stopped }) { break }
            if ready < 0 {
                if errno != EINTR { usleep(100_000) }
                continue
            }
            if fds.count > 1, fds[1].revents != 0, offsetFileChanged() {
                clock.reload()
                clockChanged()
            }
            if fds[0].revents != 0 { readTimer() }
        }
    }

    private func readTimer() {
        var expirations: UInt64 = 0
        let n = read(fd, &expirations, MemoryLayout<UInt64>.size)
        if n == MemoryLayout<UInt64>.size {
            handler(.wake)
        } else if n < 0 && errno == ECANCELED {
            // The system clock was set.
            clockChanged()
        }
        // EAGAIN: re-armed between poll and read; EINTR: poll again.
    }

    /// Drains the inotify queue; true if any event names the offset file.
    private func offsetFileChanged() -> Bool {
        guard let file = clock.offsetFile else { return false }
        let name = Array(Self.name(of: file).utf8)
        var changed = false
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(watch, buffer, capacity)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: UInt8.self)
                let length = Int(event.len)
                let bytes = UnsafeBufferPointer(start: nameStart, count: length)
                let eventName = bytes.prefix { $0 != 0 }
                if eventName.elementsEqual(name) { changed = true }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
        return changed
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
