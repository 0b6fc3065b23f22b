import Testing

@testable import NoiseClockMQTT

/// The id each connection uses, and the publications kept for an id change (pure values).
@Suite struct ClientIdentityTests {
    @Test func aRefusalReplacesTheSuffixWithEightHexDigits() {
        var identity = ClientIdentity(stable: "noiseclock-bedside")
        #expect(identity.current == "noiseclock-bedside" && !identity.isSuffixed)
        #expect(identity.sessionRefused(suffix: 0x1f) == "noiseclock-bedside-0000001f")
        #expect(identity.isSuffixed)
        // A refusal under the suffix replaces it: the id never grows.
        #expect(identity.sessionRefused(suffix: 0xdead_beef) == "noiseclock-bedside-deadbeef")
        #expect(identity.current == "noiseclock-bedside-deadbeef")
    }

    @Test func unacknowledgedPublicationsComeBackOldestFirstWithinTheLimit() {
        var held = Unacknowledged<String>(limit: 3)
        held.sent(1, "a")
        held.sent(2, "b")
        held.sent(3, "c")
        held.acknowledged(2)
        held.acknowledged(9)  // not held: nothing happens
        held.sent(4, "d")
        held.sent(5, "e")  // over the limit: the oldest ("a") goes
        // An id in use again (ids wrap at 65535): the old entry's PUBACK was lost with its connection.
        held.sent(4, "d again")
        #expect(held.takeAll() == ["c", "e", "d again"])
        #expect(held.takeAll().isEmpty)
    }
}
