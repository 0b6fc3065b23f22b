import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.Surroundings {
    /// 20 nodes on one broker: a group command reaches each once, each answers once on its own
    /// `~/response`, and no two nodes share a client id (a shared id would make the broker kick one
    /// off, which shows up as `offline` or a reconnect).
    @Suite(.serialized) struct ManyNodesTests {
        static let count = 20

        @Test func groupCommandReachesEveryNodeOnceAndEachAnswersOnItsOwnTopic() async throws {
            let broker = try TestBroker()
            let ids = (1...Self.count).map { String(format: "room%02d", $0) }
            let nodes = try ids.map { try NodeProcess(brokerPort: broker.port, nodeID: $0) }
            let client = try await TestClient(port: broker.port,
                subscriptions: ["noiseclock/+/availability", "noiseclock/+/response", "noiseclock/+/style"])
            defer { client.shutdown() }
            for node in nodes { try node.start() }
            defer { for node in nodes { node.killHard() } }

            let allOnline = await FaultSupport.eventually(timeout: 60) {
                Set(client.messages.filter { $0.topic.hasSuffix("/availability") && $0.text == "online" }.map(\.topic)).count == Self.count
            }
            #expect(allOnline, "online: \(Set(client.messages.filter { $0.text == "online" }.map(\.topic)).sorted())")

            let mark = client.messages.count
            client.publish("noiseclock/all/style/set", #"{"request_id": "group-1", "glow": 42}"#)
            let answered = await FaultSupport.eventually(timeout: 20) {
                client.messages.dropFirst(mark).filter { $0.topic.hasSuffix("/response") }.count >= Self.count
            }
            #expect(answered)
            // A harmless group command: each node answers it after anything else it had to say,
            // a duplicate answer included.
            client.publish("noiseclock/all/alarm/delete", #"{"id": "no-such-alarm", "request_id": "barrier"}"#)
            let settled = await FaultSupport.eventually(timeout: 30) {
                client.messages.dropFirst(mark).filter { $0.topic.hasSuffix("/response") && $0.json?["request_id"] == "barrier" }.count >= Self.count
            }
            #expect(settled)
            let responses = client.messages.dropFirst(mark).filter { $0.topic.hasSuffix("/response") && $0.json?["request_id"] != "barrier" }
            #expect(responses.count == Self.count, "\(responses.count) answers")
            let byTopic = Dictionary(grouping: responses, by: \.topic)
            #expect(Set(byTopic.keys) == Set(ids.map { "noiseclock/\($0)/response" }))
            #expect(byTopic.values.allSatisfy { $0.count == 1 }, "each node answers exactly once")
            #expect(responses.allSatisfy { $0.json?["request_id"] == "group-1" && $0.json?["ok"] == true && $0.json?["command"] == "style/set" })
            // Each node's own retained style carries the change.
            let styles = client.messages.dropFirst(mark).filter { $0.topic.hasSuffix("/style") && $0.json?["glow"] == 42 }
            #expect(Set(styles.map(\.topic)).count == Self.count)

            // Nobody was kicked off: no `offline`, no second `online`, no takeover in the broker's log.
            let availability = client.messages.filter { $0.topic.hasSuffix("/availability") }
            #expect(!availability.contains { $0.text == "offline" })
            #expect(Dictionary(grouping: availability.filter { $0.text == "online" }, by: \.topic).values.allSatisfy { $0.count == 1 })
            let brokerLog = (try? String(contentsOf: broker.directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
            #expect(!brokerLog.contains("already connected"), "client id collision in the broker log")
            #expect(nodes.allSatisfy { $0.isRunning })

            let rss = nodes.compactMap { FaultSupport.residentKiB(pid: $0.pid) }.sorted()
            #expect(rss.count == Self.count)
            let total = rss.reduce(0, +)
            print("many nodes: \(Self.count) nodes, RSS per node min \(rss.first! / 1024) MiB, median \(rss[rss.count / 2] / 1024) MiB, "
                + "max \(rss.last! / 1024) MiB, total \(total / 1024) MiB (debug build)")
        }
    }
}
