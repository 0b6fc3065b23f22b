import Foundation
import Glibc
import NoiseClockCore
import Testing

/// `POST /api/restart` on a real node (http-api v1.4), over real HTTP and MQTT: answered 202 with
/// its `request_id`, `~/availability` goes `offline` then `online`, an alarm acknowledged just before
/// is still there. In place it is the same process (re-executed); under systemd it exits 75, which
/// the unit's `Restart=on-failure` restarts, without STOPPING=1.
@Suite(.serialized) struct RestartNodeTests {
    @Test func aRestartComesBackOnlineAsTheSameProcessWithWhatWasAcknowledged() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let pid = rig.node.pid
        // A body that is not empty nor only a request id: refused, and the node stays (it answers the next command).
        let refused = try await rig.post("restart", #"{"now": true, "request_id": "bad"}"#)
        #expect(refused.status == 400, "\(refused.text)")
        #expect(try JSONParser().parse(refused.body)["request_id"] == "bad", "\(refused.text)")
        let mark = rig.client.messages.count
        let added = try await rig.post("alarm/add", #"{"id": "kept", "time": "06:30", "repeat": "weekdays"}"#)
        #expect(added.status == 200, "\(added.text)")

        let asked = Date()
        let answer = try await rig.post("restart", #"{"request_id": "again"}"#)
        #expect(answer.status == 202, "\(answer.text)")
        let json = try JSONParser().parse(answer.body)
        #expect(json["request_id"] == "again" && json["ok"] == true && json["result"]?["restarting"] == true, "\(answer.text)")
        let availability = "\(rig.root)/availability"
        let offline = try await rig.client.waitFor(availability, timeout: 15, after: mark, where: { $0.text == "offline" })
        let online = try await rig.client.waitFor(availability, timeout: 20, after: mark, where: { $0.text == "online" && $0.at > offline.at })
        #expect(rig.client.messages(on: availability).dropFirst().filter { $0.at < offline.at }.allSatisfy { $0.text == "online" },
                "nothing went offline before the restart was asked")
        let alarms = try await rig.client.waitFor("\(rig.root)/alarms", timeout: 10, where: { $0.at > online.at })
        #expect(alarms.json?.arrayValue?.contains { $0["id"] == "kept" } == true, "after the restart: \(alarms.text)")
        #expect(rig.node.isRunning && rig.node.pid == pid, "re-executed in place: the same process id")
        print("restart: asked → offline \(Int(offline.at.timeIntervalSince(asked) * 1000)) ms, "
            + "→ online again \(Int(online.at.timeIntervalSince(asked) * 1000)) ms")
        // The web app answers again, with the alarm.
        let deadline = Date().addingTimeInterval(15)
        var state: WebReply?
        while Date() < deadline {
            if let reply = try? await rig.get("/api/state"), reply.status == 200 { state = reply; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let body = try #require(state, "the web app did not answer after the restart").body
        #expect(try JSONParser().parse(body)["alarms"]?.arrayValue?.contains { $0["id"] == "kept" } == true)
        rig.node.signal(SIGTERM)
        #expect(rig.node.waitForExit(timeout: 15) == 0)
    }

    @Test func underSystemdARestartExitsWithTheStatusTheUnitRestarts() async throws {
        let listener = try NotifySocketListener(abstract: false)
        let rig = try await WebRig.start(environment: ["NOTIFY_SOCKET": listener.address])
        defer { rig.shutdown() }
        let added = try await rig.post("alarm/add", #"{"id": "kept", "time": "06:30", "repeat": "weekdays"}"#)
        #expect(added.status == 200, "\(added.text)")
        let answer = try await rig.post("restart", "")
        #expect(answer.status == 202, "\(answer.text)")
        #expect(rig.node.waitForExit(timeout: 15) == 75, "EX_TEMPFAIL, which Restart=on-failure restarts")
        var said: [String] = []
        while let datagram = listener.receive() { said.append(datagram) }
        #expect(said.contains { $0.hasPrefix("READY=1") }, "\(said)")
        #expect(!said.contains { $0.contains("STOPPING=1") }, "systemd must restart the unit, not stop it: \(said)")
        // What systemd starts again has the alarm.
        rig.node.environment["NOTIFY_SOCKET"] = nil
        let mark = rig.client.messages.count
        try rig.node.start()
        let alarms = try await rig.client.waitFor("\(rig.root)/alarms", timeout: 15, after: mark)
        #expect(alarms.json?.arrayValue?.contains { $0["id"] == "kept" } == true, "\(alarms.text)")
        // Started (its web app answers) before it is asked to stop: a SIGTERM in its first
        // milliseconds, before its handlers are in place, ends it as the signal's default does (143).
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let reply = try? await rig.get("/api/state"), reply.status == 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        rig.node.signal(SIGTERM)
        #expect(rig.node.waitForExit(timeout: 15) == 0)
    }
}
