import CLinux
import Glibc
import NoiseClockThreads

/// Tells when the files in one directory change (created, written, removed, renamed in or out),
/// through inotify on a thread of its own: `changes` yields once per burst of kernel events, so
/// a caller rescans, not handles each event. No polling: the thread sleeps in `poll` until the
/// kernel or `stop` wakes it.
public final class DirectoryWatcher: Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public let directory: String
    /// One element per burst of changes; finished by `stop`.
    public let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let inotify: Int32
    /// Written by `stop` to end the thread's `poll`.
    private let stopEvent: Int32
    private let thread = DedicatedThread(name: "sounds-watch")

    public init(directory: String) throws(Failure) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard inotify >= 0 else { throw Failure(description: "inotify: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CREATE) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO)
            | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        guard inotify_add_watch(inotify, directory, mask) >= 0 else {
            let message = String(cString: strerror(errno))
            close(inotify)
            throw Failure(description: "cannot watch \(directory): \(message)")
        }
        let stopEvent = eventfd(0, Int32(EFD_CLOEXEC))
        guard stopEvent >= 0 else {
            close(inotify)
            throw Failure(description: "eventfd: \(String(cString: strerror(errno)))")
        }
        self.directory = directory
        self.inotify = inotify
        self.stopEvent = stopEvent
        (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        close(inotify)
        close(stopEvent)
    }

    public func start() throws(ThreadStartError) {
        try thread.start { [self] in run() }
    }

    /// Ends the thread and the stream.
    public func stop() {
        var one: UInt64 = 1
        _ = write(stopEvent, &one, 8)
        thread.join()
        continuation.finish()
    }

    private func run() {
        var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopEvent, events: Int16(POLLIN), revents: 0)]
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            var any = false
            while read(inotify, buffer, capacity) > 0 { any = true }
            if any { continuation.yield(()) }
        }
    }
}
