import Foundation
import Testing

/// Hostile HTTP (issue 11 item 3): huge bodies and headers, garbage, slow clients, many open
/// streams. Each gets a clear answer, and the node's loop and alarms carry on.
@Suite("Web hostile input") struct WebHostileTests {
    @Test("a body over 64 KiB is refused with 413 before it is sent, headers over 16 KiB with 431, garbage with 400")
    func oversizedAndGarbage() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let head = "POST /api/alarm/add HTTP/1.1\r\nAuthorization: Bearer \(rig.token)\r\nContent-Length: 10000000\r\n\r\n"
        let big = try await WebTestClient.raw(port: rig.port, Array(head.utf8))
        #expect(big.status == 413)
        #expect(big.errorCode == "payload_too_large")

        let headers = "GET /api/state HTTP/1.1\r\nX-Filler: \(String(repeating: "x", count: 20_000))\r\n\r\n"
        #expect(try await WebTestClient.raw(port: rig.port, Array(headers.utf8)).status == 431)
        let garbage = try await WebTestClient.raw(port: rig.port, Array("\u{1}\u{2}HELLO\r\n\r\n".utf8))
        #expect(garbage.status == 400)
        #expect(garbage.errorCode == "bad_request")
        // A body of exactly 64 KiB reaches the command parser (and is refused there, as on MQTT).
        let exact = String(repeating: " ", count: 65_536)
        let reply = try await rig.post("noise/volume/set", exact)
        #expect(reply.status == 400)
        #expect(try await rig.get("/api/state").status == 200)
    }

    @Test("slow and idle clients and a crowd of event streams do not stop the node: an alarm still rings, commands still answer")
    func crowd() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        // Idle connections that never finish a request (a slow-loris), from five addresses up
        // to each one's limit of 8 (the per-address limits have their own tests).
        var idle: [WebSocket] = []
        for index in 0..<40 {
            // Reads wait longer than the server's 5 s for a request's headers.
            let socket = try WebSocket(port: rig.port, timeout: 20, from: "127.0.0.\(10 + index / 8)")
            socket.send(Array("GET /api/state HTTP/1.1\r\nHost: x\r\n".utf8))
            idle.append(socket)
        }
        // 16 streams in all (4 from each of four addresses); the 17th is refused.
        var streams: [EventStreamClient] = []
        for index in 0..<16 { streams.append(try await rig.events(from: "127.0.0.\(20 + index / 4)")) }
        #expect(streams.allSatisfy { $0.status == 200 })
        let extra = try await rig.events(from: "127.0.0.24")
        #expect(extra.status == 503)

        // The node's loop and MQTT are untouched.
        try await rig.ringTestAlarm()
        // Every stream hears the ring; none of them reads slowly enough to be cut off.
        for stream in streams { _ = try await stream.waitFor("alarm", where: { $0.contains("ringing") }) }
        let dismissed = try await rig.post("alarm/dismiss", "")
        #expect(dismissed.status == 200)
        try await rig.client.waitFor("\(rig.root)/alarm", where: { $0.json?["state"] == .string("idle") })
        // The idle clients are answered 408 once their 5 s run out, and closed.
        let late = try await WebTestClient.offload { [idle] in idle[0].receiveAll() }
        #expect(String(decoding: late, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
        #expect(idle.count == 40)
    }
}
