import Foundation
import Glibc
import NoiseClockCore
import Testing

/// The smaller findings of issue 37 on the real node: a sound device that is a definition writes
/// no file, `mqtt/test` keeps the stored password from another broker, and a `web.port` trial on a
/// port another program holds fails at once.
@Suite struct TrustSmallNodeTests {
    /// `POST /api/audio/test {"device": "file:'…'"}` truncated the file and wrote 192,000 bytes of
    /// the chime into it; saving it as `audio.device` would write 187 KB/s there.
    @Test func aSoundDeviceThatIsADefinitionIsRefusedAndWritesNoFile() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let victim = rig.node.directory.appendingPathComponent("victim.txt")
        try "keep me\n".write(to: victim, atomically: true, encoding: .utf8)
        let devices = ["file:'\(victim.path)'", "file:\(victim.path)", "tee:'\(victim.path)',raw",
                       "{type file slave.pcm null file \"\(victim.path)\"}"]
        for device in devices {
            let body = JSONValue.object(JSONObject([("device", .string(device))])).serialized
            let tested = try await rig.post("audio/test", body)
            #expect(tested.status == 400, "\(device): \(tested.text)")
            #expect(try JSONParser().parse(tested.body)["error"]?["field"] == "device", "\(tested.text)")
            let saved = try await rig.post("settings", JSONValue.object(JSONObject([("audio.device", .string(device))])).serialized)
            #expect(saved.status == 400, "\(device): \(saved.text)")
            #expect(try JSONParser().parse(saved.body)["error"]?["field"] == "audio.device", "\(saved.text)")
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n", "the file was written")
        #expect(!FileManager.default.fileExists(atPath: rig.node.stateDirectory.appendingPathComponent("settings.json").path))
    }

    /// `POST /api/mqtt/test` to another host with the node's user name sent it the stored
    /// password. A second real mosquitto on loopback that knows that password (so it accepts the
    /// connection only if the password reached it) shows which password arrived.
    @Test func anotherBrokerNeverReceivesTheStoredPassword() async throws {
        let password = "pw-Stored-37#secret"
        let secrets = try ProofSuite.Surroundings.SecurityTLSTests.passwordDirectory(user: "clock", password: password)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let other = try TestBroker(extraConfig: """
            persistence false
            listener $PORT 127.0.0.1
            allow_anonymous false
            password_file \(secrets.path)/passwd
            """)
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        // The node's own (anonymous) broker takes the user and password: they are now the stored ones.
        let stored = try await rig.post("settings", #"{"mqtt.username": "clock", "mqtt.password": "\#(password)"}"#)
        #expect(stored.status == 200, "\(stored.text)")
        try await BrokerSwitchNodeTests().waitForBroker(rig, state: "connected")

        let probe = try await rig.post("mqtt/test", #"{"host": "127.0.0.1", "port": \#(other.port), "username": "clock"}"#)
        let result = try JSONParser().parse(probe.body)["result"]
        #expect(result?["connected"] == false, "the other broker received the stored password: \(probe.text)")
        print("mqtt/test to another broker with the node's user name: \(probe.text)")
        // The password typed in the request is the one sent (the broker takes it: the rig works).
        let typed = try await rig.post(
            "mqtt/test", #"{"host": "127.0.0.1", "port": \#(other.port), "username": "clock", "password": "\#(password)"}"#)
        #expect(try JSONParser().parse(typed.body)["result"]?["connected"] == true, "\(typed.text)")
    }

    /// A `web.port` trial on a port in use showed `pending` for 60 s while the log said the web app was off.
    @Test func aWebPortTrialOnATakenPortFailsAtOnceAndKeepsTheOldPort() async throws {
        let first = try freeLoopbackPort()
        let taken = try freeLoopbackPort()
        let holder = try Self.listen(port: taken)
        defer { close(holder) }
        let online = try await OnlineNode.start(
            environment: ["NOISECLOCK_WEB_ENABLED": "true"], yamlExtra: "web:\n  host: 127.0.0.1\n  port: \(first)\n  auth: token")
        defer { online.shutdown() }
        let bearer = ["Authorization": "Bearer \(try #require(online.node.webToken))"]
        var ready = false
        for _ in 0..<100 where !ready {
            ready = (try? await WebTestClient.request(port: first, "GET", "/healthz"))?.status == 200
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        let started = Date()
        let reply = try await WebTestClient.request(port: first, "POST", "/api/settings", headers: bearer, body: #"{"web.port": \#(taken)}"#)
        let answered = Date().timeIntervalSince(started)
        let changed = try JSONParser().parse(reply.body)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(changed["web"]?["state"] == "failed", "\(changed["web"] ?? .null)")
        #expect(changed["web"]?["reason"]?.stringValue?.contains("port \(taken) is taken") == true, "\(changed["web"] ?? .null)")
        #expect(changed["values"]?["web.port"] == .int(Int64(first)), "the answer shows the port that stays")
        print("web.port trial on a taken port: answered \(Int(answered * 1000)) ms: \((changed["web"] ?? .null).serialized)")
        let again = try JSONParser().parse(try await WebTestClient.request(port: first, "GET", "/api/settings", headers: bearer).body)
        #expect(again["web"]?["state"] == "failed" && again["values"]?["web.port"] == .int(Int64(first)), "\(again["web"] ?? .null)")
        let settings = try JSONParser().parse([UInt8](Data(contentsOf: online.node.stateDirectory.appendingPathComponent("settings.json"))))
        #expect(settings["values"]?["web.port"] == nil, "settings.json keeps the old port: \(settings)")
        #expect(try await WebTestClient.request(port: first, "GET", "/healthz").status == 200)
        #expect(!online.node.log.contains("web app is off"), "the old address stayed open")
    }

    /// A socket listening on 127.0.0.1:`port`, as another program would hold it.
    static func listen(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 4) == 0 else { throw TestFailure("cannot hold port \(port): \(errno)") }
        return fd
    }
}
