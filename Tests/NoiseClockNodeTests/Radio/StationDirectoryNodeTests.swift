import Foundation
import NoiseClockCore
import Testing

/// The station directory on the real node (http-api and mqtt-api v1.4), HTTP through real
/// sockets and a Radio Browser stand-in of our own on loopback (`RadioBrowserStandIn`): a search
/// answered from the directory, then from the cache; the directory stopped or silent answered
/// `directory_unreachable` within 5 s; a station added with its `directory_id` tells the directory
/// once; a moved station healed at the next readiness check. Figures printed, quoted in docs.
@Suite(.serialized) struct StationDirectoryNodeTests {
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    static func names(_ reply: WebReply) -> [String] {
        ((try? JSONSerialization.jsonObject(with: Data(reply.body))) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func aSearchIsAnsweredFromTheDirectoryThenFromTheCache() async throws {
        let directory = try await RadioBrowserStandIn()
        defer { directory.stop() }
        let rig = try await WebRig.start(environment: directory.environment)
        defer { rig.shutdown() }
        var start = ContinuousClock.now
        let first = try await rig.get("/api/stations/search?q=jazz&limit=5")
        let fromDirectory = Self.seconds(since: start)
        #expect(first.status == 200, "\(first.text)")
        // Broken stations hidden, the most voted first, the unusable one (a file address) left out.
        #expect(Self.names(first) == ["Swiss Jazz Test", "Jazz Night Test", "Moving Jazz Test"], "\(first.text)")
        let station = try #require(((try? JSONSerialization.jsonObject(with: Data(first.body))) as? [[String: Any]])?.first)
        #expect(station["directory_id"] as? String == RadioBrowserStandIn.swissJazz)
        #expect(station["codec"] as? String == "MP3" && station["bitrate_kbps"] as? Int == 128 && station["country"] as? String == "CH")
        #expect(station["tags"] as? [String] == ["jazz", "smooth jazz", "swiss"])
        #expect((station["url"] as? String)?.hasSuffix("/stream/jazz.mp3") == true && station["homepage"] is String)
        var stats = try await directory.stats()
        #expect(stats["searches"] as? Int == 1)
        let asked = try #require(stats["last_search"] as? [String: String])
        #expect(asked == ["name": "jazz", "limit": "5", "hidebroken": "true", "order": "votes", "reverse": "true"], "\(asked)")
        #expect((stats["user_agents"] as? [String])?.allSatisfy { $0 == "NoiseClock/\(NoiseClockVersion.current)" } == true, "\(stats)")

        start = ContinuousClock.now
        let second = try await rig.get("/api/stations/search?q=jazz&limit=5")
        let fromCache = Self.seconds(since: start)
        #expect(second.status == 200 && second.body == first.body)
        stats = try await directory.stats()
        #expect(stats["searches"] as? Int == 1, "the same search within 10 minutes is not asked again")
        // Printed, not judged: a time bound in a test run beside every other suite fails by chance
        // (3.1 s once under make test's load); 8 ms and 0 ms on an idle machine (docs/radio-directory.md).
        // The cache is proved by the count above: the directory was asked once.
        print("station search: from the directory \(Int(fromDirectory * 1000)) ms, from the cache \(Int(fromCache * 1000)) ms")

        let korean = try await rig.get("/api/stations/search?country=kr&tag=classical")
        #expect(Self.names(korean) == ["KBS Classic Test"], "\(korean.text)")
        let refusals = [("limit=0", "limit"), ("limit=51", "limit"), ("country=KOR", "country"), ("q=" + String(repeating: "a", count: 101), "q")]
        for (query, field) in refusals {
            let refused = try await rig.get("/api/stations/search?" + query)
            let error = refused.json?["error"] as? [String: Any]
            #expect(refused.status == 400 && error?["code"] as? String == "invalid_field" && error?["field"] as? String == field, "\(refused.text)")
        }
        #expect(try await directory.stats()["searches"] as? Int == 2, "a refused search asks nothing")
    }

    @Test func theDirectoryStoppedOrSilentIsDirectoryUnreachableWithinFiveSeconds() async throws {
        let directory = try await RadioBrowserStandIn()
        defer { directory.stop() }
        let rig = try await WebRig.start(environment: directory.environment)
        defer { rig.shutdown() }
        try await directory.setSilent(true)
        var start = ContinuousClock.now
        let silent = try await rig.get("/api/stations/search?q=silent")
        let silentSeconds = Self.seconds(since: start)
        #expect(silent.status == 502 && silent.errorCode == "directory_unreachable", "\(silent.text)")
        try await directory.setSilent(false)
        directory.stop()
        start = ContinuousClock.now
        let stopped = try await rig.get("/api/stations/search?q=stopped")
        let stoppedSeconds = Self.seconds(since: start)
        #expect(stopped.status == 502 && stopped.errorCode == "directory_unreachable", "\(stopped.text)")
        print("directory silent → 502 in \(Int(silentSeconds * 1000)) ms; stopped → 502 in \(Int(stoppedSeconds * 1000)) ms")
        #expect(silentSeconds < 5 && stoppedSeconds < 5)
        // A typed address still works with the directory down.
        let added = try await rig.post("station/add", #"{"id": "typed", "name": "Typed", "url": "http://radio.example/typed.mp3"}"#)
        #expect(added.status == 200, "\(added.text)")
    }

    @Test func aStationAddedWithItsDirectoryIDTellsTheDirectoryOnceAndKeepsIt() async throws {
        let directory = try await RadioBrowserStandIn()
        defer { directory.stop() }
        let rig = try await WebRig.start(environment: directory.environment)
        defer { rig.shutdown() }
        let id = RadioBrowserStandIn.swissJazz
        let body = #"{"name": "Swiss Jazz Test", "url": "\#(directory.url)/stream/jazz.mp3", "directory_id": "\#(id)"}"#
        let added = try await rig.post("station/add", body)
        #expect(added.status == 200, "\(added.text)")
        #expect(((added.json?["result"] as? [String: Any])?["directory_id"] as? String) == id)
        let stations = try await rig.client.waitFor("\(rig.root)/stations", where: { $0.text.contains(id) })
        #expect(stations.json?.arrayValue?.first?["directory_id"] == .string(id))
        // Told once, off the loop: wait for the click to arrive at the directory.
        let deadline = ContinuousClock.now + .seconds(5)
        var clicks: [String: Int] = [:]
        while ContinuousClock.now < deadline {
            clicks = try await directory.stats()["clicks"] as? [String: Int] ?? [:]
            if clicks[id] != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(clicks == [id: 1], "\(clicks)")
        // The state file keeps it (the node reads it back at its next start).
        let file = try String(contentsOf: rig.node.stateDirectory.appendingPathComponent("stations.json"), encoding: .utf8)
        #expect(file.contains(id))
    }

    @Test func aMovedStationIsHealedAtTheNextReadinessCheck() async throws {
        let directory = try await RadioBrowserStandIn()
        defer { directory.stop() }
        let rig = try await WebRig.start(environment: directory.environment)
        defer { rig.shutdown() }
        let id = RadioBrowserStandIn.moving
        let old = "\(directory.url)/gone/moving.mp3"
        try await command(rig, "station/add", #"{"id": "moving", "name": "Moving", "url": "\#(old)", "directory_id": "\#(id)"}"#)
        // An alarm two hours ahead (the node's zone is UTC): its station is probed at each check.
        let components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date().addingTimeInterval(7200))
        let time = String(format: "%02d:%02d", components.hour!, components.minute!)
        try await command(rig, "alarm/add", #"{"id": "wake", "time": "\#(time)", "sound": "radio:moving"}"#)
        // Still where the directory says: the check finds it down, and nothing to heal.
        var check = try await command(rig, "alarm/check", "")
        #expect(Self.problems(check).contains("stream_unreachable"), "\(check)")
        // The station moves; the directory knows the new address.
        try await directory.move(id, to: "/stream/moving.mp3")
        let start = ContinuousClock.now
        check = try await command(rig, "alarm/check", "")
        let healSeconds = Self.seconds(since: start)
        #expect(!Self.problems(check).contains("stream_unreachable"), "\(check)")
        let stations = try await rig.client.waitFor("\(rig.root)/stations", where: { $0.text.contains("/stream/moving.mp3") })
        #expect(stations.json?.arrayValue?.first?["url"] == .string("\(directory.url)/stream/moving.mp3"))
        #expect(stations.json?.arrayValue?.first?["directory_id"] == .string(id))
        #expect((try await directory.stats()["byuuid"] as? Int ?? 0) >= 2, "looked up at each failed check")
        print("moved station healed at the readiness check in \(Int(healSeconds * 1000)) ms")
    }

    static func problems(_ check: JSONValue) -> [String] {
        check["result"]?["problems"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    /// A command over MQTT, its `~/response` (by request id).
    @discardableResult
    func command(_ rig: WebRig, _ topic: String, _ payload: String) async throws -> JSONValue {
        let requestID = "\(topic)-\(rig.client.messages.count)"
        var body = payload.isEmpty ? "{}" : payload
        body.removeLast()
        body += (body.hasSuffix("{") ? "" : ", ") + #""request_id": "\#(requestID)"}"#
        let index = rig.client.messages.count
        rig.client.publish("\(rig.root)/\(topic)", body)
        let response = try await rig.client.waitFor("\(rig.root)/response", timeout: 30, after: index, where: {
            $0.json?["request_id"] == .string(requestID)
        })
        let json = try #require(response.json)
        #expect(json["ok"] == true, "\(topic): \(response.text)")
        return json
    }
}
