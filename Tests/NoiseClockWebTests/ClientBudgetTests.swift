import Testing
@testable import NoiseClockWeb

/// Issue 31, finding 6: whom the per-client limits count, and which half-sent request gives way
/// when every slot is taken.
@Suite struct ClientBudgetTests {
    @Test(arguments: [
        ("192.168.1.23", "192.168.1.23"), ("127.0.0.2", "127.0.0.2"),
        // An IPv4 client of a dual-stack (`web.host: ::`) socket is its IPv4 address, not ::ffff:0:0/64.
        ("::ffff:192.168.1.23", "192.168.1.23"), ("::FFFF:10.0.0.1", "10.0.0.1"),
        // IPv6: the /64, whatever the interface part.
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"), ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("fe80::1", "fe80:0:0:0::/64"), ("::1", "0:0:0:0::/64"), ("unknown", "unknown"),
    ])
    func groups(_ address: String, _ group: String) {
        #expect(ClientGroup.of(address) == group)
    }

    @Test func anotherAddressInTheSame64IsTheSameClient() {
        #expect(ClientGroup.of("2001:db8:1:2::1") == ClientGroup.of("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        #expect(ClientGroup.of("2001:db8:1:2::1") != ClientGroup.of("2001:db8:1:3::1"))
    }

    typealias Half = ConnectionBudget.HalfSent

    @Test func theHeaviestClientsOldestHalfSentRequestGivesWay() {
        // 8 × 8 half-sent requests from eight addresses; a probe from a ninth takes the oldest of one of them.
        let attack = (0..<64).map { Half(id: UInt64($0 + 1), group: "127.0.0.\(2 + $0 % 8)") }
        #expect(ConnectionBudget.victim(among: attack, for: "127.0.0.10") == 1)
        let uneven = [Half(id: 5, group: "a"), Half(id: 6, group: "b"), Half(id: 7, group: "b"), Half(id: 3, group: "c")]
        #expect(ConnectionBudget.victim(among: uneven, for: "z") == 6)
    }

    @Test func noOneGivesWayToAClientAsHeavyAsTheHeaviest() {
        let halfSent = [Half(id: 1, group: "a"), Half(id: 2, group: "a"), Half(id: 3, group: "b"), Half(id: 4, group: "b")]
        #expect(ConnectionBudget.victim(among: halfSent, for: "a") == nil)
        #expect(ConnectionBudget.victim(among: halfSent, for: "c") == 1)
        // Streams and answered requests are not half-sent: with none, the newcomer is refused.
        #expect(ConnectionBudget.victim(among: [], for: "c") == nil)
        // A light client is never the one pushed out while a heavier one holds half-sent requests.
        let probe = [Half(id: 1, group: "probe"), Half(id: 2, group: "x"), Half(id: 3, group: "x")]
        #expect(ConnectionBudget.victim(among: probe, for: "x") == nil)
        #expect(ConnectionBudget.victim(among: probe, for: "y") == 2)
    }
}
