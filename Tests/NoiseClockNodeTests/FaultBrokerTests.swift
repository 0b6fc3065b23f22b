import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.Crashes {
    /// The broker dies under the node: acknowledged commands stay, retained state comes back,
    /// and an alarm due while the broker is away rings on time and is reported afterwards.
    @Suite(.serialized) struct FaultBrokerTests {
        @Test func acknowledgedCommandsSurviveTenBrokerKills() async throws {
            let online = try await OnlineNode.start(subscribing: ["response", "availability"])
            defer { online.shutdown() }
            let (broker, node, client, root) = (online.broker, online.node, online.client, online.root)

            var seed = TestSeed("FAULT_BROKER_SEED", default: 1_017)
            var glowSent: [(request: String, glow: Int)] = []
            var recoveries: [Double] = []
            var counter = 0
            for _ in 0..<10 {
                // A burst of commands; the broker is killed while some are still in flight.
                for _ in 0..<4 {
                    counter += 1
                    client.publish("\(root)/alarm/add",
                        #"{"request_id": "add-\#(counter)", "time": "03:00", "label": "r\#(counter)", "sound": "none", "enabled": false}"#)
                }
                counter += 1
                glowSent.append(("glow-\(counter)", counter % 101))
                client.publish("\(root)/style/set", #"{"request_id": "glow-\#(counter)", "glow": \#(counter % 101)}"#)
                try await Task.sleep(for: .milliseconds(seed.int(in: 0...20)))
                broker.kill()
                try await Task.sleep(for: .milliseconds(seed.int(in: 200...600)))
                try broker.start()
                let restarted = Date()
                // The broker kept nothing: only the node can bring these back.
                let watcher = try await TestClient(port: broker.port, subscriptions: ["\(root)/alarms", "\(root)/style", "\(root)/availability"])
                let online = try await watcher.waitFor("\(root)/availability", timeout: 5, where: { $0.text == "online" })
                let alarms = try await watcher.waitFor("\(root)/alarms", timeout: 5)
                let style = try await watcher.waitFor("\(root)/style", timeout: 5)
                recoveries.append([online.at, alarms.at, style.at].max()!.timeIntervalSince(restarted))
                watcher.shutdown()
            }

            // Settle: one more command answered proves the node and our client are both back.
            let mark = client.messages.count
            client.publish("\(root)/style/set", #"{"request_id": "sync", "show_date": true}"#)
            try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == "sync" })

            let acked = Set(client.messages(on: "\(root)/response").compactMap { message -> String? in
                guard message.json?["ok"] == true else { return nil }
                return message.json?["request_id"]?.stringValue
            })
            let ackedAdds = (1...counter).filter { acked.contains("add-\($0)") }
            // Some commands die with the broker; enough must get through for the check to mean something.
            #expect(ackedAdds.count >= 10, "only \(ackedAdds.count) of 40 adds were acknowledged; \(seed)")

            let final = try await TestClient(port: broker.port, subscriptions: ["\(root)/alarms", "\(root)/style"])
            defer { final.shutdown() }
            let alarms = FaultSupport.labels(in: try await final.waitFor("\(root)/alarms").json)
            let onDisk = FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, "alarms.json"))
            for n in ackedAdds {
                #expect(alarms.contains("r\(n)"), "acknowledged add r\(n) missing from ~/alarms; \(seed)")
                #expect(onDisk.contains("r\(n)"), "acknowledged add r\(n) missing from alarms.json")
            }
            // Glow: the last acknowledged value, or one sent after it (applied, answer lost).
            let glow = try #require(try await final.waitFor("\(root)/style").json?["glow"]?.intValue)
            if let lastAcked = glowSent.lastIndex(where: { acked.contains($0.request) }) {
                let allowed = glowSent[lastAcked...].map(\.glow)
                #expect(allowed.contains(glow), "glow \(glow), allowed \(allowed); \(seed)")
                #expect(try FaultSupport.stateFile(node.stateDirectory, "style.json")?["style"]?["glow"]?.intValue == glow)
            }
            #expect(recoveries.allSatisfy { $0 < 5 }, "recovery times \(recoveries)")
            let sorted = recoveries.sorted()
            print("broker restart → retained state back: median \(sorted[sorted.count / 2]) s, worst \(sorted.last!) s; acked "
                + "adds \(ackedAdds.count)/40: \(ackedAdds)")
            #expect(node.isRunning)
        }

        @Test func alarmDueDuringAnOutageRingsOnTimeAndIsReportedAfterReconnect() async throws {
            let store = try makeTemporaryDirectory(prefix: "broker-db")
            defer { try? FileManager.default.removeItem(at: store) }
            chmod(store.path, 0o777)  // mosquitto drops root to its own user before writing the db
            // A persistent broker and session, so the subscriber misses nothing sent while it reconnects.
            let broker = try TestBroker(extraConfig: """
                listener $PORT 127.0.0.1
                allow_anonymous true
                persistence true
                persistence_location \(store.path)/
                autosave_interval 1
                """)
            let node = try NodeProcess(brokerPort: broker.port)
            try node.start()
            let root = "noiseclock/\(node.nodeID)"
            let subscriber = try RecordingClient.persistent(
                port: broker.port, clientID: "fault-sub-\(UUID().uuidString.prefix(6))",
                subscriptions: ["\(root)/alarm/fired", "\(root)/availability", "\(root)/response"]
            )
            defer { subscriber.shutdown() }
            try await subscriber.waitConnected()
            try await subscriber.waitFor("\(root)/availability", timeout: 10, where: { $0.text == "online" })

            // Tomorrow morning on the node's clock, moved there by the test.
            let boundary = Int(NodeTime.minute(hour: 6, minute: 30).timeIntervalSince1970)
            try await node.setClock(to: Date(timeIntervalSince1970: Double(boundary - 30)))
            let hhmm = String(format: "%02d:%02d", (boundary / 3600) % 24, (boundary / 60) % 60)
            subscriber.publish("\(root)/alarm/add", #"{"request_id": "due", "time": "\#(hhmm)", "label": "outage", "sound": "none"}"#)
            let added = try await subscriber.waitFor("\(root)/response", where: { $0.json?["request_id"] == "due" })
            #expect(added.json?["ok"] == true, "\(added.text)")
            let nextTrigger = try #require(added.json?["result"]?["next_trigger"]?.stringValue)
            #expect(FaultSupport.date(iso: nextTrigger)?.timeIntervalSince1970 == Double(boundary))

            // Broker down from 3 s before the alarm (on the node's clock) until the ring is saved.
            try await node.setClock(to: Date(timeIntervalSince1970: Double(boundary - 3)))
            broker.kill()
            try await node.setClock(to: Date(timeIntervalSince1970: Double(boundary) - 0.3))
            let rang = await FaultSupport.eventually(timeout: 15) {
                (try? FaultSupport.stateFile(node.stateDirectory, "alarms.json"))??["ring"]?["phase"] == "ringing"
            }
            #expect(rang, "the ring was not saved while the broker was down")
            let restarted = Date()
            try broker.start()

            let fired = try await subscriber.waitFor("\(root)/alarm/fired", timeout: 15)
            #expect(fired.at >= restarted, "the event can only arrive after the broker is back")
            let json = try #require(fired.json)
            #expect(json["label"] == "outage")
            let scheduled = try #require(json["scheduled"]?.stringValue.flatMap(FaultSupport.date(iso:)))
            let at = try #require(json["at"]?.stringValue.flatMap(FaultSupport.date(iso:)))
            #expect(scheduled.timeIntervalSince1970 == Double(boundary))
            // ISO times carry whole seconds: rang within the same or the next second.
            #expect(at.timeIntervalSince(scheduled) <= 1, "rang at \(json["at"]!) for \(json["scheduled"]!)")
            // Once, not once per reconnect: a harmless command's answer comes after anything else.
            subscriber.publish("\(root)/alarm/delete", #"{"id": "no-such-alarm", "request_id": "barrier"}"#)
            try await subscriber.waitFor("\(root)/response", timeout: 10, where: { $0.json?["request_id"] == "barrier" })
            #expect(subscriber.messages(on: "\(root)/alarm/fired").count == 1)
            subscriber.publish("\(root)/alarm/dismiss", "")
            #expect(node.isRunning)
        }
    }
}
