import NoiseClockThreads
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// A station probe's thread is joined at once when its owner stops: the stop cuts the probe's
/// sockets (`StreamCutter`) before it joins, so a probe waiting on a server that never answers
/// ends now, not at its own limit (docs/architecture.md, "Threads").
@Suite struct StationProbeCutTests {
    @Test func stoppingTheProbesCutsAProbeWaitingOnASilentServer() throws {
        // A loopback listener that never accepts: the kernel completes the connection, nobody answers.
        let listener = try LoopbackListener()
        let url = "http://127.0.0.1:\(listener.port)/live"

        let cutter = StreamCutter()
        let probes = JobThreads(name: "station-probe") { cutter.cut() }
        let answer = Mutex<String?>(nil)
        let started = WakeSignal()
        #expect(try probes.start {
            started.signal()
            let result = StationProbe(url: url, userAgent: "test", allowsLocalAddresses: true).run(cutBy: cutter)
            answer.withLock { $0 = Self.cause(result) }
        })
        #expect(started.wait(seconds: 5))
        // Let the probe connect and wait for the server's head.
        Clocks.sleep(seconds: 0.5)
        let stopping = Clocks.monotonicSeconds()
        probes.stop()
        let took = Clocks.monotonicSeconds() - stopping
        #expect(took < 1.5, "the stop waited \(took) s for the probe")
        #expect(answer.withLock { $0 } != nil && answer.withLock { $0 } != "heard", "\(String(describing: answer.withLock { $0 }))")
    }

    private static func cause(_ result: Result<StationProbe.Result, StreamProbeFailure>) -> String {
        if case .failure(let failure) = result { return failure.cause }
        return "heard"
    }
}
