import Glibc
import NoiseClockThreads
import Testing
@testable import NoiseClockAudio

/// `stream.allow_local_addresses` off (the default): a station whose address is, or resolves to,
/// loopback or link-local is refused at the socket (`forbidden_address`), by the probe and the
/// player alike, before anything is sent; nothing needs to listen there. With it on, the same
/// address is connected (port 1: `refused`). Fast: nothing waits on the network.
struct StreamAddressRuleTests {
    static let local = [
        "http://127.0.0.1:1/live", "http://127.8.9.10:1/live", "http://localhost:1/live", "http://[::1]:1/live",
        "http://[::ffff:127.0.0.1]:1/live", "http://0.0.0.0:1/live", "http://169.254.169.254/latest/meta-data/",
        "https://127.0.0.1:1/live",
    ]

    @Test(arguments: local)
    func aLocalAddressIsForbiddenUnlessAllowed(_ url: String) throws {
        let probe = StationProbe(url: url, userAgent: "NoiseClock/test").run()
        #expect(probe == .failure(StreamProbeFailure(cause: "forbidden_address")), "\(url): \(probe)")
        if url.contains(":1/") {
            let allowed = StationProbe(url: url, userAgent: "NoiseClock/test", allowsLocalAddresses: true).run()
            #expect(allowed == .failure(StreamProbeFailure(cause: "refused")), "\(url): \(allowed)")
        }
    }

    /// As the node runs it: on a thread of its own, outside any task (`StationProber`).
    @Test func aProbeOnAThreadOfItsOwnIsRefusedToo() throws {
        let thread = DedicatedThread(name: "test-probe")
        let answer = Answer()
        try thread.start { answer.set(StationProbe(url: "http://127.0.0.1:1/live", userAgent: "NoiseClock/test").run()) }
        thread.join()
        #expect(answer.get() == .failure(StreamProbeFailure(cause: "forbidden_address")), "\(String(describing: answer.get()))")
    }

    final class Answer: @unchecked Sendable {
        // @unchecked Sendable: set by the thread before `join`, read after.
        private var value: Result<StationProbe.Result, StreamProbeFailure>?
        func set(_ value: Result<StationProbe.Result, StreamProbeFailure>) { self.value = value }
        func get() -> Result<StationProbe.Result, StreamProbeFailure>? { value }
    }

    @Test func thePlayerIsRefusedTooAndBacksOff() {
        let source = StationSource(url: "http://127.0.0.1:1/live", outputRate: 48_000, userAgent: "NoiseClock/test") { _ in }
        var cause: String?
        for _ in 0..<100 where cause == nil {
            usleep(20_000)
            cause = source.failure
        }
        #expect(cause == "forbidden_address")
    }

    @Test func addressesAreJudgedByTheirBytes() {
        func v4(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 { a << 24 | b << 16 | c << 8 | d }
        for ip in [v4(127, 0, 0, 1), v4(127, 255, 255, 254), v4(169, 254, 0, 1), v4(0, 0, 0, 0)] {
            #expect(StreamAddressRule.isLocal(ipv4: ip))
        }
        for ip in [v4(128, 0, 0, 1), v4(169, 253, 0, 1), v4(10, 0, 0, 1), v4(192, 168, 1, 1), v4(1, 1, 1, 1)] {
            #expect(!StreamAddressRule.isLocal(ipv4: ip))
        }
        let zero = [UInt8](repeating: 0, count: 16)
        var loopback = zero, linkLocal = zero, mapped = zero, publicV6 = zero
        loopback[15] = 1
        linkLocal[0] = 0xFE
        linkLocal[1] = 0xBF
        mapped[10] = 0xFF
        mapped[11] = 0xFF
        mapped[12] = 127
        mapped[15] = 1
        publicV6[0] = 0x20
        publicV6[1] = 0x01
        for bytes in [zero, loopback, linkLocal, mapped] { #expect(StreamAddressRule.isLocal(ipv6: bytes), "\(bytes)") }
        #expect(!StreamAddressRule.isLocal(ipv6: publicV6))
        mapped[12] = 8
        #expect(!StreamAddressRule.isLocal(ipv6: mapped), "::ffff:8.0.0.1")
    }
}
