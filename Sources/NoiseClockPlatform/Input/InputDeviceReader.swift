import CLinux
import Glibc
import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// Reads one Linux input device (evdev) on its own thread and reports its buttons' gestures.
///
/// Any path that yields `struct input_event` records works: `/dev/input/event*` (grabbed with
/// EVIOCGRAB so the console does not also get the keys), or a FIFO (the tests). A device that is
/// missing, or goes away (read error, end of file), is looked for again every `retrySeconds`;
/// nothing here ever stops the node. The rules (gestures, learn mode) are `ButtonPanel`'s; this
/// only brings it records and the monotonic time they arrived.
public final class InputDeviceReader: Sendable {
    public enum Status: Sendable, Equatable {
        case connected
        /// Not open; the reason (`No such file or directory`, `unplugged`).
        case missing(String)
    }

    public let path: String
    private let retrySeconds: Double
    private let onStatus: @Sendable (Status) -> Void
    private let onEvent: @Sendable (ButtonPanel.Event) -> Void
    private let thread: DedicatedThread
    /// Wakes the thread's poll for `stop` and `learn`.
    private let wakeFD: Int32
    private let control = Mutex<Control>(Control())
    /// The panel, touched only by the thread once it runs (in a lock so `learn` can reach it).
    private let panel: Mutex<ButtonPanel>

    private struct Control {
        var stopped = false
        /// Seconds of learn mode asked for since the thread last looked.
        var learnSeconds: Double?
    }

    /// EVIOCGRAB, `_IOW('E', 0x90, int)` in <linux/input.h> (a function-like macro Swift cannot import).
    private static let grabRequest: UInt = 0x4004_4590

    public init(
        path: String, panel: ButtonPanel, retrySeconds: Double = 2,
        onStatus: @escaping @Sendable (Status) -> Void, onEvent: @escaping @Sendable (ButtonPanel.Event) -> Void
    ) {
        self.path = path
        self.panel = Mutex(panel)
        self.retrySeconds = retrySeconds
        self.onStatus = onStatus
        self.onEvent = onEvent
        thread = DedicatedThread(name: "input")
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
    }

    public func start() throws(ThreadStartError) {
        try thread.start { [self] in runLoop() }
    }

    public func stop() {
        control.withLock { $0.stopped = true }
        wake()
        thread.join()
    }

    /// For `seconds` from now, every key-down is reported as `.learned` (bound keys act as well).
    public func learn(seconds: Double) {
        control.withLock { $0.learnSeconds = seconds }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    private func runLoop() {
        var reported: Status?
        func report(_ status: Status) {
            guard status != reported else { return }
            reported = status
            onStatus(status)
        }
        while !takeControl() {
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                report(.missing(String(cString: strerror(errno))))
                waitForWake(seconds: retrySeconds)
                continue
            }
            grabIfDevice(fd)
            report(.connected)
            let reason = readUntilGone(fd)
            close(fd)
            panel.withLock { $0.reset() }
            guard let reason else { break }
            report(.missing(reason))
            waitForWake(seconds: retrySeconds)
        }
    }

    /// True once stopped; applies a pending learn request first.
    private func takeControl() -> Bool {
        let (stopped, learn) = control.withLock { control in
            defer { control.learnSeconds = nil }
            return (control.stopped, control.learnSeconds)
        }
        if let learn {
            let until = Self.now() + learn
            panel.withLock { $0.learningUntil = until }
        }
        return stopped
    }

    /// A real input device is grabbed, so its keys go to the node alone; a FIFO or a device
    /// another program holds is read all the same.
    private func grabIfDevice(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return }
        _ = ioctl(fd, Self.grabRequest, 1)
    }

    /// Reads records until the device goes away (its reason) or the reader is stopped (nil).
    private func readUntilGone(_ fd: Int32) -> String? {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: InputEvent.recordSize * 64)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, pollTimeout())
            if ready < 0 && errno != EINTR { return String(cString: strerror(errno)) }
            if fds[1].revents != 0 { drainWake() }
            // After the poll, so a learn request made before a record was written applies to it.
            if takeControl() { return nil }
            if fds[0].revents != 0 {
                let count = read(fd, &buffer, buffer.count)
                if count == 0 { return "unplugged" }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return errno == ENODEV ? "unplugged" : String(cString: strerror(errno))
                }
                pending += buffer[0..<count]
                let whole = pending.count - pending.count % InputEvent.recordSize
                let now = Self.now()
                for start in stride(from: 0, to: whole, by: InputEvent.recordSize) {
                    let event = InputEvent(record: pending[start..<start + InputEvent.recordSize])
                    deliver(panel.withLock { $0.handle(event, at: now) })
                }
                pending.removeFirst(whole)
            }
            deliver(panel.withLock { $0.expire(at: Self.now()) })
        }
    }

    private func deliver(_ events: [ButtonPanel.Event]) {
        for event in events { onEvent(event) }
    }

    /// Milliseconds until the panel's next deadline (rounded up, so it is due when poll returns);
    /// -1 (wait for a record) when nothing is pending.
    private func pollTimeout() -> Int32 {
        guard let deadline = panel.withLock({ $0.deadline }) else { return -1 }
        let milliseconds = ((deadline - Self.now()) * 1000).rounded(.up)
        return Int32(max(0, min(milliseconds, 60_000)))
    }

    private func drainWake() {
        var value: UInt64 = 0
        _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
    }

    private func waitForWake(seconds: Double) {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 1, Int32(seconds * 1000)) > 0 { drainWake() }
    }

    /// The monotonic clock in seconds: gestures are timed on it, never on the wall clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
