import Foundation
import Glibc
import NoiseClockCore
import Testing

extension ProofSuite.NodeFaults {
    /// `kill -9` at random moments during a stream of 500 changes: the state files always parse,
    /// and what the restarted node publishes is the last acknowledged value of every key (or the
    /// one change that was in flight when it died).
    @Suite(.serialized) struct FaultKillTests {
        @Test func everyAcknowledgedChangeSurvivesKill9() async throws {
            let online = try await OnlineNode.start(subscribing: ["response", "availability", "alarms", "style"])
            defer { online.shutdown() }
            let (node, client, root) = (online.node, online.client, online.root)

            var ids: [String] = []
            for n in 0..<5 {
                let mark = client.messages.count
                client.publish("\(root)/alarm/add",
                    #"{"request_id": "setup-\#(n)", "time": "05:0\#(n)", "label": "L-\#(n)-0", "sound": "none", "enabled": false}"#)
                let response = try await client.waitFor("\(root)/response", after: mark, where: { $0.json?["request_id"] == .string("setup-\(n)") })
                ids.append(try #require(response.json?["result"]?["id"]?.stringValue))
            }
            // Key → last acknowledged value; "glow" for the style, the alarm id for a label.
            var acked: [String: String] = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, "L-\($0)-0") })
            var kills = 0, ackedCount = 0
            var seed = TestSeed("FAULT_KILL_SEED", default: 4_545)
            let started = Date()
            var n = 0
            while n < 500 {
                n += 1
                let (key, value, topic, payload) = change(n, ids: ids)
                let mark = client.messages.count
                client.publish("\(root)/\(topic)", payload)
                // About one kill every 45 changes, at a random moment after the command went out.
                if seed.int(in: 0...44) == 0 {
                    try await Task.sleep(for: .microseconds(seed.int(in: 0...8_000)))
                    node.killHard()
                    kills += 1
                    try checkStateFilesParse(node)
                    let restartMark = client.messages.count
                    try node.start()
                    try await client.waitFor("\(root)/availability", timeout: 10, after: restartMark, where: { $0.text == "online" })
                    // The answer may have gone out before the kill: then the change must be there.
                    if client.messages.dropFirst(mark).contains(where: {
                        $0.topic == "\(root)/response" && $0.json?["request_id"] == .string("c\(n)") && $0.json?["ok"] == true
                    }) {
                        acked[key] = value
                        ackedCount += 1
                    }
                    // What the restarted node publishes: each key's last acked value or the in-flight one.
                    let alarms = try await client.waitFor("\(root)/alarms", timeout: 5, after: restartMark)
                    let style = try await client.waitFor("\(root)/style", timeout: 5, after: restartMark)
                    #expect(alarms.json?.arrayValue?.count == ids.count)
                    for alarm in alarms.json?.arrayValue ?? [] {
                        let id = try #require(alarm["id"]?.stringValue)
                        let label = alarm["label"]?.stringValue
                        let allowed = [acked[id], key == id ? value : nil].compactMap { $0 }
                        #expect(allowed.contains(label ?? ""),
                            "after kill \(kills): alarm \(id) label \(label ?? "nil"), allowed \(allowed); \(seed)")
                        // A change that was saved but not answered is now the node's published state.
                        if let label, allowed.contains(label) { acked[id] = label }
                    }
                    if let glow = acked["glow"] {
                        let allowed = [glow, key == "glow" ? value : nil].compactMap { $0 }
                        let published = style.json?["glow"]?.intValue.map(String.init) ?? "nil"
                        #expect(allowed.contains(published), "after kill \(kills): glow \(published), allowed \(allowed); \(seed)")
                        if allowed.contains(published) { acked["glow"] = published }
                    }
                    continue
                }
                let request = JSONValue.string("c\(n)")
                let response = try await client.waitFor("\(root)/response", timeout: 10, after: mark, where: { $0.json?["request_id"] == request })
                #expect(response.json?["ok"] == true, "\(response.text)")
                acked[key] = value
                ackedCount += 1
            }
            try checkStateFilesParse(node)
            let elapsed = Date().timeIntervalSince(started)
            print("kill -9 (\(seed)): \(kills) kills during 500 changes, \(ackedCount) acknowledged, \(String(format: "%.1f", elapsed)) s")
            #expect(kills >= 3, "the random schedule killed only \(kills) times; \(seed)")
            // Every change a kill did not interrupt was acknowledged (a kill costs at most the one in flight).
            #expect(ackedCount >= 500 - kills)
            let corrupt = try FileManager.default.contentsOfDirectory(atPath: node.stateDirectory.path).filter { $0.contains("corrupt") }
            #expect(corrupt.isEmpty, "moved aside: \(corrupt)")
        }

        /// Change `n`: odd ones relabel one of the alarms, even ones set the glow.
        private func change(_ n: Int, ids: [String]) -> (key: String, value: String, topic: String, payload: String) {
            if n % 2 == 1 {
                let index = (n / 2) % ids.count
                let label = "L-\(index)-\(n)"
                return (ids[index], label, "alarm/update", #"{"request_id": "c\#(n)", "id": "\#(ids[index])", "label": "\#(label)"}"#)
            }
            let glow = n % 101
            return ("glow", "\(glow)", "style/set", #"{"request_id": "c\#(n)", "glow": \#(glow)}"#)
        }

        private func checkStateFilesParse(_ node: NodeProcess) throws {
            for name in ["alarms.json", "style.json"] {
                do {
                    _ = try FaultSupport.stateFile(node.stateDirectory, name)
                } catch {
                    Issue.record("\(name) does not parse after kill -9: \(error)")
                }
            }
        }
    }
}
