import NoiseClockCore
import Testing
@testable import NoiseClockWeb

/// Hostile bytes for the parser: valid requests cut, flipped, repeated and spliced, many
/// thousand times (a fixed seed, so a failure repeats). Whatever comes in, the parser answers
/// one of its three results, never reads past the buffer, and keeps its limits.
@Suite struct HTTPRequestParserMutationTests {
    static let seeds: [String] = [
        "GET /api/state HTTP/1.1\r\nHost: clock\r\nAuthorization: Bearer abc\r\n\r\n",
        "POST /api/alarm/add HTTP/1.1\r\nContent-Length: 16\r\nCookie: noiseclock_session=x\r\n\r\n{\"time\":\"07:30\"}",
        "GET /?token=abc%20def&x=1 HTTP/1.0\r\n\r\n",
    ]

    @Test func mutatedRequestsNeverBreakTheParser() {
        var random = SplitMix64(seed: 11)
        var outcomes = [0, 0, 0]
        for round in 0..<20_000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<(1 + random.below(4)) {
                switch random.below(5) {
                case 0 where !bytes.isEmpty: bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                case 1 where !bytes.isEmpty: bytes.removeSubrange(random.below(bytes.count)..<bytes.count)
                case 2 where !bytes.isEmpty: bytes.insert(contentsOf: bytes.prefix(random.below(bytes.count)), at: random.below(bytes.count))
                case 3: bytes.insert(contentsOf: Array("\r\n".utf8), at: random.below(bytes.count + 1))
                default: bytes.insert(contentsOf: Array("Content-Length: \(random.below(70_000))\r\n".utf8), at: min(bytes.count, 20))
                }
            }
            switch HTTPRequestParser.parse(bytes) {
            case .incomplete:
                outcomes[0] += 1
            case .complete(let request, let consumed):
                outcomes[1] += 1
                #expect(consumed <= bytes.count)
                #expect(request.body.count <= HTTPRequestParser.maximumBodyBytes)
                #expect(request.path.hasPrefix("/"))
            case .invalid(let status, let message):
                outcomes[2] += 1
                #expect((400...505).contains(status))
                #expect(!message.isEmpty)
            }
        }
        // The mutations reach all three outcomes, or the test proves little.
        #expect(outcomes.allSatisfy { $0 > 100 }, "\(outcomes)")
    }
}
