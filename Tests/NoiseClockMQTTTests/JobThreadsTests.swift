import Glibc
import NoiseClockThreads
import Synchronization
import Testing

/// `JobThreads`: each job on a thread of its own, the ended ones joined by the next start, the
/// rest by `stop`, which refuses new jobs; and `SingleProducerRing`, the audio thread's way out.
@Suite struct JobThreadsTests {
    @Test func stopJoinsTheJobsStillRunningAndRefusesNewOnes() throws {
        let jobs = JobThreads(name: "job-test")
        let release = WakeSignal()
        let ended = Atomic<Int>(0)
        for _ in 0..<3 {
            #expect(try jobs.start {
                release.wait(seconds: 0.3)
                ended.add(1, ordering: .relaxed)
            })
        }
        #expect(jobs.count == 3)
        // Returns only once every body has returned: nothing is left running on its own.
        jobs.stop()
        #expect(ended.load(ordering: .relaxed) == 3)
        #expect(jobs.count == 0)
        #expect(jobs.isStopping)
        #expect(try !jobs.start { ended.add(10, ordering: .relaxed) })
        #expect(ended.load(ordering: .relaxed) == 3)
    }

    @Test func theJobsThatEndedAreJoinedByTheNextStart() throws {
        let jobs = JobThreads(name: "job-test")
        let done = WakeSignal()
        #expect(try jobs.start { done.signal() })
        #expect(done.wait(seconds: 5))
        // Each start joins the jobs that have returned: with jobs that end at once, the count
        // comes down to the one just started.
        var starts = 0
        repeat {
            #expect(try jobs.start {})
            starts += 1
        } while jobs.count > 1 && starts < 1000
        #expect(jobs.count == 1)
        jobs.stop()
        #expect(jobs.count == 0)
    }

    @Test func theRingHandsOverInOrderAndRefusesWhenFull() {
        let ring = SingleProducerRing<Int>(capacity: 4)
        for value in 1...4 { #expect(ring.push(value)) }
        #expect(!ring.push(5))
        #expect(ring.space == 0)
        #expect(ring.pop() == 1)
        #expect(ring.push(5))
        #expect([ring.pop(), ring.pop(), ring.pop(), ring.pop(), ring.pop()] == [2, 3, 4, 5, nil])
    }

    @Test func theRingCarriesValuesBetweenTwoThreadsInOrder() throws {
        let ring = SingleProducerRing<Int>(capacity: 64)
        let count = 200_000
        let producer = DedicatedThread(name: "ring-producer")
        try producer.start {
            var next = 0
            while next < count {
                if ring.push(next) { next += 1 }
            }
        }
        var expected = 0
        while expected < count {
            guard let value = ring.pop() else { continue }
            if value != expected { break }
            expected += 1
        }
        producer.join()
        #expect(expected == count)
    }
}
