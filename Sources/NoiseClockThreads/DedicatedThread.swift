#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// A named pthread for blocking work that must stay off Swift's cooperative pool
/// (`mosquitto_loop`, a `read` on a timerfd, `snd_pcm_writei`).
///
/// The owner keeps one as a `let`, calls `start` once it is fully initialised, and `join` after
/// asking the body to end (a flag, a signal, an fd). The body keeps what it captures (usually
/// the owner) alive until it returns: that replaces the owners' own `Unmanaged.passRetained`.
///
/// ```swift
/// private let thread = DedicatedThread(name: "wake-timer")
/// public func start() throws(ThreadStartError) { try thread.start { [self] in runLoop() } }
/// public func stop() { stopped = true; thread.join(); continuation.finish() }
/// ```
public final class DedicatedThread: Sendable {
    private enum State {
        case idle
        case running(pthread_t)
        case ended
    }

    /// Shown by `top -H` and in core dumps; Linux keeps the first 15 bytes.
    public let name: String
    private let state = Mutex(State.idle)

    public init(name: String) {
        self.name = name
    }

    /// Runs `body` on a new thread. Returns false, running nothing, if this thread was already
    /// started or joined (so a second `start` of the owner is harmless).
    @discardableResult
    public func start(_ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> Bool {
        let name = self.name
        // Creating under the lock means a concurrent `join` sees either no thread or its handle.
        return try state.withLock { state throws(ThreadStartError) -> Bool in
            guard case .idle = state else { return false }
            let context = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
            var handle = pthread_t()
            let rc = pthread_create(&handle, nil, dedicatedThreadMain, context)
            guard rc == 0 else {
                Unmanaged<ThreadBody>.fromOpaque(context).release()
                throw ThreadStartError(name: name, code: rc)
            }
            state = .running(handle)
            return true
        }
    }

    /// Waits until the body has returned. After it, `start` does nothing. Call it from one owner
    /// only (a second caller returns at once).
    ///
    /// Called on the thread itself, it detaches instead: that happens when the body's captures
    /// are the owner's last reference and the owner's `deinit` stops its thread.
    public func join() {
        let handle = state.withLock { state -> pthread_t? in
            defer { state = .ended }
            guard case .running(let handle) = state else { return nil }
            return handle
        }
        guard let handle else { return }
        if pthread_equal(handle, pthread_self()) != 0 {
            pthread_detach(handle)
        } else {
            pthread_join(handle, nil)
        }
    }

    /// The calling thread's name (`audio`, `node-loop`, ...), as `top -H` shows it.
    public static var currentName: String {
        var buffer = [CChar](repeating: 0, count: 16)
        guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True between a successful `start` and `join`.
    public var isRunning: Bool {
        state.withLock { state in
            if case .running = state { return true }
            return false
        }
    }
}

public struct ThreadStartError: Error, CustomStringConvertible, Sendable {
    public let name: String
    /// pthread_create's error number (EAGAIN: a thread or memory limit).
    public let code: Int32
    public var description: String { "cannot start thread \(name): \(String(cString: strerror(code)))" }
}

/// What crosses pthread_create's `void *`: a class so one retain carries it.
private final class ThreadBody {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// The entry point: a file-scope function, so it carries no actor isolation. It takes back the
/// reference `start` retained, and drops it (and what the body captured) when the body returns.
private func dedicatedThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let thread = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
    _ = pthread_setname_np(pthread_self(), String(decoding: thread.name.utf8.prefix(15), as: UTF8.self))
    thread.body()
    return nil
}
