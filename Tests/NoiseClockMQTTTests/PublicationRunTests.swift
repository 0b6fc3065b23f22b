import NoiseClockMQTT
import Testing

/// One input's publications (the node's new state and its response) leave in one TCP segment:
/// the broker reads them together and forwards them together.
@Suite struct PublicationRunTests {
    @Test func publicationsPublishedTogetherReachTheBrokerInOneRead() async throws {
        let rig = try await ProxiedSubject.start(observing: ["n/#"])
        defer { rig.shutdown() }
        let (proxy, observer, subject) = (rig.proxy, rig.observer, rig.subject)
        // Several rounds: without the run, the network thread writes the first alone as soon as
        // it wakes, and the proxy reads it before the second is written.
        for round in 1...20 {
            let state = "<state \(round)>", response = "<response \(round)>"
            subject.client.publishTogether {
                subject.publish("n/state", state)
                subject.publish("n/response", response)
            }
            _ = try await observer.messages.first(timeout: 5, "response \(round)") { $0.topic == "n/response" && $0.text == response }
            let carried = proxy.clientReads.items.filter { $0.contains(Array(state.utf8)) }
            #expect(carried.count == 1, "round \(round): the state was read \(carried.count) times")
            #expect(carried.first?.contains(Array(response.utf8)) == true, "round \(round): the response came in another read")
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `part` occurs in these bytes.
    func contains(_ part: [UInt8]) -> Bool {
        guard !part.isEmpty, part.count <= count else { return part.isEmpty }
        return (0...(count - part.count)).contains { start in self[start..<(start + part.count)].elementsEqual(part) }
    }
}
