import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// Issue 31, finding 9: a 1.55 MB `~/sounds` closed every event stream right after its head (the
/// whole state went into the stream's buffer at once, past the 1 MiB a slow reader may fall
/// behind), and browsers reconnected in a loop. The state a stream starts with is not lag: a
/// state of any size is delivered, and the stream lives on. The real server and inbox; the test
/// plays the loop (as WebReplyPathTests does).
@Suite struct WebLargeStateTests {
    /// A `~/sounds` like the attack's: 500 files with 240-byte names of control characters (each
    /// escaped to six bytes), listed as noise and alarm: 1.5 MB.
    static func largeSounds() -> [UInt8] {
        let name = String(repeating: #"\u0001"#, count: 236)
        let entries = (0..<500).map { index in
            #"{"id":"s\#(index)","name":"\#(index) \#(name)","category":"custom","seconds":1.0,"format":"WAV (Signed 16 bit PCM)"}"#
        }.joined(separator: ",")
        let text = #"{"noise":[\#(entries)],"alarm":[\#(entries)]}"#
        return Array(text.utf8)
    }

    @Test("a 1.5 MB state is delivered whole on a new event stream, which then carries the next event")
    func largeStateReachesTheStream() async throws {
        let rig = try await WebReplyPathTests.Rig.start()
        let sounds = Self.largeSounds()
        #expect(sounds.count > 1_500_000)
        let stream = try await EventStreamClient(port: rig.port, headers: [:])
        #expect(stream.status == 200)
        // The stream's snapshot request (the server asked one for itself at start: id 1).
        let id = try await WebTestClient.offload { [inbox = rig.inbox] () -> UInt64? in
            while let item = inbox.next() {
                if case .input(.snapshot(let id)) = item, id > 1 { return id }
            }
            return nil
        }
        let snapshotID = try #require(id)
        rig.server.snapshot(snapshotID, [
            Observation(suffix: "sounds", payload: sounds), Observation(suffix: "availability", payload: Array("online".utf8)),
        ])
        rig.server.observe(Observation(suffix: "battery", payload: Array(#"{"level":50,"marker":true}"#.utf8)))
        // Read until the marker event has come (or the stream closed).
        let received = try await WebTestClient.offload { [socket = stream.socket] () -> [UInt8] in
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let chunk = socket.receive()
                if chunk.isEmpty, case .closed = socket.peek() { break }
                bytes += chunk
                if String(decoding: bytes.suffix(200), as: UTF8.self).contains(#""marker":true"#) { break }
            }
            return bytes
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(received.count > sounds.count, "\(received.count) bytes came")
        #expect(text.contains("event: sounds\ndata: " + String(decoding: sounds, as: UTF8.self) + "\n\n"))
        #expect(text.contains("event: availability\ndata: online\n\n"))
        #expect(text.contains(#"event: battery"# + "\n" + #"data: {"level":50,"marker":true}"#))
        try await rig.stop()
    }
}
