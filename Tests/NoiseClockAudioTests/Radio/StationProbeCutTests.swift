import NoiseClockThreads
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// A station probe's thread is joined at once when its owner stops: the stop cuts the probe's
/// sockets (`StreamCutter`) before it joins, so a probe waiting on a server that never answers
/// ends now, not at its own limit (docs/architecture.md, "Every thread is joined by its owner").
@Suite struct StationProbeCutTests {
    @Test func stoppingTheProbesCutsAProbeWaitingOnASilentServer() throws {
        // A loopback listener that never accepts: the kernel completes the connection, nobody answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 4) == 0)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/live"

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
