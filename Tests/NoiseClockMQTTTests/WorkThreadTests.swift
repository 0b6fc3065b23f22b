import NoiseClockThreads
import Synchronization
import Testing

/// `WorkThread`: blocking jobs run one after the other on its named thread; after `stop` the
/// queued ones have run and new ones are refused (an awaited one answers nil, never hangs).
@Suite struct WorkThreadTests {
    @Test func runsJobsInOrderOnItsThreadAndRefusesThemOnceStopped() async throws {
        let worker = WorkThread(name: "work-test")
        try worker.start()
        let order = Mutex<[Int]>([])
        for index in 0..<5 { worker.submit { order.withLock { $0.append(index) } } }
        let name = await worker.run { DedicatedThread.currentName }
        #expect(name == "work-test")
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
        let queued = worker.submit { order.withLock { $0.append(5) } }
        worker.stop()
        #expect(queued && order.withLock { $0.last } == 5, "a job queued before stop still runs")
        #expect(!worker.submit { order.withLock { $0.append(6) } })
        #expect(await worker.run { 1 } == nil)
        #expect(order.withLock { $0.count } == 6)
    }
}
