import Foundation
import Glibc
import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// The broker's password set in the web app (`mqtt.password`, http-api.md v1.3): applied live
/// through the broker switch, a refused one rolled back, the right one connects; never shown,
/// logged or published. A real mosquitto whose one listener needs the password, another
/// (anonymous) for the test's own watcher; the real node.
@Suite struct BrokerPasswordNodeTests {
    static let password = "pw-Web-7f3#only-here"

    @Test func aPasswordSavedInTheWebAppConnectsTheNodeAndAWrongOneIsRolledBack() async throws {
        let secrets = try ProofSuite.Surroundings.SecurityTLSTests.passwordDirectory(user: "clock", password: Self.password)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let open = try freeLoopbackPort()
        let broker = try TestBroker(extraConfig: """
            per_listener_settings true
            persistence false
            listener $PORT 127.0.0.1
            allow_anonymous false
            password_file \(secrets.path)/passwd
            listener \(open) 127.0.0.1
            allow_anonymous true
            """)
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let watcher = try await TestClient(port: open, subscriptions: ["\(rig.root)/#"])
        defer { Task.detached { watcher.shutdown() } }
        let switches = BrokerSwitchNodeTests()

        // A wrong password, refused by the broker; the right one during that trial: online behind it. (Until a trial
        // connects, settings.json keeps the broker that worked: the second change names every key again.)
        let move = #"{"mqtt.port": \#(broker.port), "mqtt.username": "clock", "mqtt.password": "PASSWORD"}"#
        let wrong = try await rig.post("settings", move.replacingOccurrences(of: "PASSWORD", with: "wrong"))
        #expect(wrong.status == 200, "\(wrong.text)")
        let sent = Date()
        let right = try await rig.post("settings", move.replacingOccurrences(of: "PASSWORD", with: Self.password))
        #expect(right.status == 200, "\(right.text)")
        #expect(!right.text.contains(Self.password))
        let online = try await watcher.waitFor("\(rig.root)/availability", where: { $0.text == "online" })
        print("broker password: online behind it \(Int(online.at.timeIntervalSince(sent) * 1000)) ms after POST /api/settings")
        #expect(online.at.timeIntervalSince(sent) < 5)
        try await switches.waitForBroker(rig, state: "connected")
        let shown = try await rig.get("/api/settings")
        #expect(try JSONParser().parse(shown.body)["values"]?["mqtt.password"] == "set")
        #expect(!shown.text.contains(Self.password))
        let settings = rig.node.stateDirectory.appendingPathComponent("settings.json")
        #expect(try String(contentsOf: settings, encoding: .utf8).contains(Self.password))

        // Test connection with the node's user name and no password typed uses the password that connected.
        let probe = try await rig.post("mqtt/test", #"{"host": "127.0.0.1", "port": \#(broker.port), "username": "clock"}"#)
        #expect(try JSONParser().parse(probe.body)["result"]?["connected"] == true, "\(probe.text)")

        // A wrong one alone (the password is a broker key of its own): offline there, back to the right one once the node's clock passed 10 s.
        let mark = watcher.messages.count
        #expect(try await rig.post("settings", #"{"mqtt.password": "wrong"}"#).status == 200)
        try await watcher.waitFor("\(rig.root)/availability", after: mark, where: { $0.text == "offline" })
        try await rig.node.setClock(to: rig.node.now.addingTimeInterval(10))
        let back = try await switches.waitForBroker(rig, state: "rolled_back")
        #expect(back["reason"]?.stringValue?.contains("back to 127.0.0.1:\(broker.port)") == true, "\(back)")
        try await watcher.waitFor("\(rig.root)/availability", after: mark, where: { $0.text == "online" })
        #expect(try String(contentsOf: settings, encoding: .utf8).contains(Self.password))
        // Never logged, never published (the node's ~/info included), never in a backup without its secrets.
        try await watcher.waitFor("\(rig.root)/info")
        #expect(!rig.node.log.contains(Self.password))
        #expect(!watcher.messages.contains { $0.text.contains(Self.password) })
        let withoutSecrets = try await rig.get("/api/backup")
        #expect(!withoutSecrets.text.contains(Self.password))
        #expect(try await rig.get("/api/backup?secrets=1").text.contains(Self.password))

        // Restored from a backup without its secrets, the node keeps its own password (and its broker).
        let beforeRestore = watcher.messages.count
        #expect(try await rig.post("restore", withoutSecrets.text).status == 200)
        #expect(try JSONParser().parse(try await rig.get("/api/settings").body)["values"]?["mqtt.password"] == "set")
        #expect(try String(contentsOf: settings, encoding: .utf8).contains(Self.password))
        try await watcher.barrier(rig.root)
        #expect(!watcher.messages.dropFirst(beforeRestore).contains { $0.topic == "\(rig.root)/availability" && $0.text == "offline" })
    }
}
