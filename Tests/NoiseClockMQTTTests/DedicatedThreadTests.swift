import CLinux
import Glibc
import NoiseClockThreads
import Testing

@Suite struct DedicatedThreadTests {
    @Test func runsTheBodyOnANamedThreadOnceAndJoinsIt() throws {
        let thread = DedicatedThread(name: "a-rather-long-thread-name")
        let seen = Recorder<String>()
        let gate = WakeSignal()
        #expect(try thread.start {
            var name = [CChar](repeating: 0, count: 32)
            pthread_getname_np(pthread_self(), &name, name.count)
            // Holds the thread until the test has checked `isRunning`.
            gate.wait(seconds: 5)
            seen.append(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        })
        #expect(thread.isRunning)
        #expect(try !thread.start { seen.append("second") })
        gate.signal()
        thread.join()
        #expect(!thread.isRunning)
        #expect(seen.items == ["a-rather-long-t"])
        // After a join, starting does nothing.
        #expect(try !thread.start { seen.append("after join") })
        thread.join()
        #expect(seen.items == ["a-rather-long-t"])
    }

    @Test func wakeSignalEndsAWaitEarlyAndTimesOutOtherwise() {
        let signal = WakeSignal()
        #expect(!signal.wait(seconds: 0.01))
        signal.signal()
        let start = ContinuousClock.now
        #expect(signal.wait(seconds: 10))
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
