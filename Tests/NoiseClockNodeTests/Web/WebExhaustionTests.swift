import Foundation
import Synchronization
import Glibc
import Testing

/// No one address takes the web app away (issue 18): per-address limits, the header deadline,
/// a slow-loris plus half-sent requests from 127.0.0.2 while 127.0.0.1 keeps being served, and
/// nothing left behind after many connections. Latency figures are printed here and measured in
/// Benchmarks/web-attack.sh; the tests assert only behaviour.
@Suite("Web exhaustion") struct WebExhaustionTests {
    @Test("one address gets at most 8 connections and 4 event streams; other addresses are served meanwhile")
    func perAddressLimits() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        // The ninth connection from 127.0.0.2 is refused while the eight are held. The eight are
        // cut off 5 s after they came (408): on a machine so loaded that this happened before the
        // ninth was answered, the round says nothing and is run again.
        var ninth: WebReply?
        for _ in 0..<3 {
            var held: [WebSocket] = []
            for _ in 0..<8 {
                let socket = try WebSocket(port: rig.port, timeout: 10, from: "127.0.0.2")
                socket.send(Array("GET /api/state HTTP/1.1\r\n".utf8))
                held.append(socket)
            }
            // Accepted in order: once /healthz is answered, the eight are in.
            #expect(try await rig.get("/healthz", headers: [:]).status == 200)
            let reply = try await WebTestClient.request(port: rig.port, "GET", "/healthz", from: "127.0.0.2")
            if held.allSatisfy({ if case .open = $0.peek() { true } else { false } }) {
                ninth = reply
                break
            }
        }
        #expect(ninth?.status == 503)
        #expect(ninth?.errorCode == "busy")
        #expect(try await rig.get("/api/state").status == 200)

        var streams: [EventStreamClient] = []
        for _ in 0..<4 { streams.append(try await rig.events(from: "127.0.0.5")) }
        #expect(streams.allSatisfy { $0.status == 200 })
        #expect(try await rig.events(from: "127.0.0.5").status == 503)
        #expect(try await rig.events(from: "127.0.0.6").status == 200)
    }

    /// Issue 31, finding 6: eight half-sent requests from each of eight addresses held all 64
    /// slots, and 22 of 24 `/healthz` probes from a ninth got 503. A newcomer now takes the slot
    /// of the heaviest client's oldest half-sent request.
    @Test("8 × 8 half-sent requests from 127.0.0.2-9: 24 /healthz probes from 127.0.0.10 all answer 200")
    func manyAddressesCannotTakeEverySlot() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        // The half-sent requests are cut off 5 s after they came (408): on a machine so loaded
        // that this happened before the probes were done, the round says nothing of the attack
        // and is run again (the probes must be answered in every round).
        var conclusive = false
        for round in 1...3 {
            let start = Date()
            var held: [WebSocket] = []
            for source in 2...9 {
                for _ in 0..<8 {
                    let socket = try WebSocket(port: rig.port, timeout: 2, from: "127.0.0.\(source)")
                    socket.send(Array("POST /api/alarm/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\nX-Half: ".utf8))
                    held.append(socket)
                }
            }
            // Connected before the probes, so accepted before them (the listen queue is in order).
            var statuses: [Int] = []
            for _ in 0..<24 { statuses.append(try await WebTestClient.request(port: rig.port, "GET", "/healthz", from: "127.0.0.10").status) }
            #expect(statuses == Array(repeating: 200, count: 24), "round \(round): \(statuses)")
            // The attack was real: the half-sent requests still hold their slots (one gave way to
            // the first probe), and one address still gets no more than 8.
            let open = held.filter { if case .open = $0.peek() { true } else { false } }.count
            let ninth = try await WebTestClient.request(port: rig.port, "GET", "/healthz", from: "127.0.0.9")
            let seconds = Date().timeIntervalSince(start)
            print(String(format: "web budget, round %d: %d of 24 probes from 127.0.0.10 answered 200; %d of 64 half-sent requests kept their slot; "
                         + "a ninth from 127.0.0.9: %d; %.2f s", round, statuses.filter { $0 == 200 }.count, open, ninth.status, seconds))
            if seconds < 4.5 {
                #expect(open >= 62, "\(open) of 64 half-sent requests still open")
                #expect(ninth.status == 503)
                conclusive = true
                break
            }
        }
        #expect(conclusive, "no round ended within the header deadline")
    }

    @Test("a request's headers must arrive within 5 s (408); one dribbled a byte at a time is still answered")
    func headerDeadline() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let late = try await WebTestClient.offload {
            let socket = try WebSocket(port: rig.port, timeout: 9)
            socket.send(Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
            return try WebTestClient.parse(socket.receiveAll())
        }
        #expect(late.status == 408)
        #expect(late.text.contains("5 s"))

        let request = Array(("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
            + "Bearer \(rig.token)\r\nX-Filler: \(String(repeating: "y", count: 200))\r\n\r\n").utf8)
        let dribbled = try await WebTestClient.offload {
            let socket = try WebSocket(port: rig.port, timeout: 10)
            for byte in request { socket.send([byte]) }
            return try WebTestClient.parse(socket.receiveAll())
        }
        #expect(dribbled.status == 200)
    }

    @Test(
        "a 100-socket slow-loris and 64 half-sent requests from 127.0.0.2: /healthz and a signed-in /api/state from 127.0.0.1 served, alarm on time"
    )
    func slotExhaustion() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let cookie = try await rig.sessionCookie()
        // An alarm tomorrow morning on the node's clock; the clock is moved to just before it
        // during the attack.
        let boundary = NodeTime.minute(hour: 6, minute: 45)
        try await rig.node.setClock(to: boundary.addingTimeInterval(-60))
        let added = try await rig.post("alarm/add", #"{"id": "attacked", "time": "06:45", "sound": "none"}"#)
        #expect(added.status == 200)
        let mark = rig.client.messages.count
        let attacker = WebAttacker(port: rig.port, source: "127.0.0.2", slowloris: 100, halfSent: 64)
        attacker.start()
        defer { attacker.stop() }
        try await attacker.waitUntilRefused()

        // At least 100 probes over at least 8 s (past the 5 s header deadline, so the attacker's
        // slots turn over).
        var latencies: [Double] = []
        var failures: [String] = []
        let end = Date().addingTimeInterval(8)
        var index = 0
        while Date() < end || index < 100 {
            let start = Date()
            let reply = index % 2 == 0
                ? try await rig.get("/healthz", headers: [:])
                : try await rig.get("/api/state", headers: ["Cookie": cookie])
            latencies.append(Date().timeIntervalSince(start) * 1000)
            if reply.status != 200 { failures.append("probe \(index): \(reply.status)") }
            index += 1
            if index == 10 { try await rig.node.setClock(to: boundary.addingTimeInterval(-2)) }
            try await Task.sleep(for: .milliseconds(40))
        }
        let stats = attacker.stop()
        let fired = try await rig.client.waitFor("\(rig.root)/alarm/fired", after: mark)
        let lateness = rig.node.nodeTime(of: fired.at).timeIntervalSince(boundary)
        #expect(lateness >= 0, "fired \(lateness) s before its minute")
        #expect(failures.isEmpty, "\(failures)")
        // The attack was real: the server refused the attacker's surplus sockets and cut off the slow ones.
        #expect(stats.refused > 0)
        #expect(stats.timedOut > 0)
        let sorted = latencies.sorted()
        let within = Double(sorted.filter { $0 <= 200 }.count) / Double(sorted.count) * 100
        print(String(format: "web exhaustion: %d probes from 127.0.0.1, p50 %.1f ms, p99 %.1f ms, max %.1f ms, %.1f %% within 200 ms; alarm fired "
            + "%.0f ms after its minute; attacker: %d connections, %d refused (503), %d cut off (408)",
                     sorted.count, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted.last ?? 0, within,
                     lateness * 1000, stats.opened, stats.refused, stats.timedOut))
    }

    @Test("10 000 connections opened and closed leave no descriptor behind and memory where it was")
    func connectionChurn() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let pid = rig.node.pid
        #expect(try await rig.get("/api/state").status == 200)
        let fdsBefore = Self.descriptors(pid)
        let rssBefore = Self.rssKiB(pid)
        try await WebTestClient.offload {
            for index in 0..<10_000 {
                // Four addresses: 32 connections at most, half the server's 64.
                let socket = try WebSocket(port: rig.port, timeout: 5, from: "127.0.0.\(30 + index % 4)")
                if index % 2 == 0 { socket.send(Array("GET /api/sta".utf8)) }
            }
        }
        // The server notices every close; it has nothing left once /healthz is answered after them.
        var fdsAfter = Int.max
        var healthy = false
        for _ in 0..<50 {
            healthy = try await rig.get("/healthz", headers: [:]).status == 200
            fdsAfter = Self.descriptors(pid)
            if healthy && fdsAfter <= fdsBefore { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(healthy)
        #expect(fdsAfter <= fdsBefore, "descriptors \(fdsBefore) → \(fdsAfter)")
        let rssAfter = Self.rssKiB(pid)
        print("web churn: descriptors \(fdsBefore) → \(fdsAfter), RSS \(rssBefore) → \(rssAfter) KiB")
        #expect(rssAfter - rssBefore < 4096, "RSS \(rssBefore) → \(rssAfter) KiB")
    }

    static func descriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    static func rssKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
