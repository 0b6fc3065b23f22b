import Synchronization

/// A named thread that runs blocking jobs one after the other, for an adapter whose work blocks
/// now and then (reading a folder of sound files) but has no loop of its own to run: the jobs stay
/// off Swift's cooperative pool, and an `async` caller awaits one with `run`.
///
/// `start` once, `stop` at the end: the jobs already queued still run, later ones are refused.
public final class WorkThread: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let arrived = WakeSignal()
    private let thread: DedicatedThread

    public init(name: String) {
        thread = DedicatedThread(name: name)
    }

    public func start() throws(ThreadStartError) {
        try thread.start { [self] in runJobs() }
    }

    /// Queues `job`; false (not run) once `stop` was called.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let queued = queue.withLock { queue -> Bool in
            guard !queue.stopped else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { arrived.signal() }
        return queued
    }

    /// Runs `job` on the thread and returns its result; nil if the thread is stopping.
    public func run<Result: Sendable>(_ job: @escaping @Sendable () -> Result) async -> Result? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
            let queued = submit { continuation.resume(returning: job()) }
            if !queued { continuation.resume(returning: nil) }
        }
    }

    /// Refuses new jobs, lets the queued ones finish and joins the thread.
    public func stop() {
        queue.withLock { $0.stopped = true }
        arrived.signal()
        thread.join()
        // Never started: nobody ran what was queued; run it here so every `run` returns.
        for job in queue.withLock({ queue in defer { queue.jobs = [] }; return queue.jobs }) { job() }
    }

    private func runJobs() {
        while true {
            let (jobs, stopped) = queue.withLock { queue in
                defer { queue.jobs = [] }
                return (queue.jobs, queue.stopped)
            }
            for job in jobs { job() }
            if stopped && jobs.isEmpty { return }
            if jobs.isEmpty { arrived.wait(seconds: 3600) }
        }
    }
}
