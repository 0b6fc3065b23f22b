import Synchronization

/// Short-lived threads with one owner that joins them (a probe, a settings trial): each job runs
/// on a `DedicatedThread` of its own, the jobs that have ended are joined as new ones start (a
/// join that returns at once), and `stop` refuses new jobs and joins the rest. Nothing is left to
/// end on its own: the owner's `stop` (a service at shutdown) is where every thread is joined.
///
/// A job that blocks must be bounded, and quick to end at `stop` (`ending` cuts a probe's sockets;
/// a trial's look every 100 ms sees `isStopping`): `stop` waits for it.
public final class JobThreads: Sendable {
    private final class Job: Sendable {
        let thread: DedicatedThread
        let finished = Atomic<Bool>(false)
        init(name: String) { thread = DedicatedThread(name: name) }
    }

    private struct State {
        var jobs: [Job] = []
        var stopping = false
    }

    /// The threads' name (`top -H`).
    public let name: String
    private let state = Mutex(State())

    /// Asks the running jobs to end quickly (a probe's sockets cut), called by `stop` before it joins them.
    private let ending: @Sendable () -> Void

    public init(name: String, ending: @escaping @Sendable () -> Void = {}) {
        self.name = name
        self.ending = ending
    }

    /// Runs `body` on a thread of its own. Returns false, running nothing, once `stop` was called.
    @discardableResult
    public func start(_ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> Bool {
        let job = Job(name: name)
        let ended = state.withLock { state -> [Job]? in
            guard !state.stopping else { return nil }
            let ended = state.jobs.filter { $0.finished.load(ordering: .acquiring) }
            state.jobs.removeAll { $0.finished.load(ordering: .acquiring) }
            state.jobs.append(job)
            return ended
        }
        guard let ended else { return false }
        // Their bodies have returned: each join waits for a thread's last instructions only.
        for old in ended { old.thread.join() }
        do {
            try job.thread.start {
                body()
                job.finished.store(true, ordering: .releasing)
            }
        } catch {
            state.withLock { state in state.jobs.removeAll { $0 === job } }
            throw error
        }
        return true
    }

    /// True once `stop` was called: a job that waits in a loop looks at it to end early.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    /// Jobs started and not yet joined (those ended are joined by the next `start` or `stop`).
    public var count: Int { state.withLock { $0.jobs.count } }

    /// Refuses new jobs and joins every thread started (the owner's stop).
    public func stop() {
        let jobs = state.withLock { state -> [Job] in
            state.stopping = true
            defer { state.jobs = [] }
            return state.jobs
        }
        ending()
        for job in jobs { job.thread.join() }
    }
}
