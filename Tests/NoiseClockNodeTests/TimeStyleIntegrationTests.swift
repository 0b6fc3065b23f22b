import Foundation
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// `~/time` follows the style at once: 24/12-hour display, AM/PM, and the per-second cadence.
    /// The node's clock is set to an evening (so 12-hour shows PM) and each payload is checked
    /// against its own `epoch` (UTC node); the minute boundary is reached by moving the clock.
    struct TimeStyleIntegrationTests {
        /// The display the contract prescribes for `epoch` in UTC.
        static func expectedDisplay(epoch: Int64, use24Hour: Bool, seconds: Bool) -> (display: String, ampm: String?) {
            let secondOfDay = ((epoch % 86_400) + 86_400) % 86_400
            let hour = Int(secondOfDay / 3600), minute = Int(secondOfDay / 60 % 60), second = Int(secondOfDay % 60)
            let hourText = use24Hour ? String(format: "%02d", hour) : String(hour % 12 == 0 ? 12 : hour % 12)
            var display = hourText + String(format: ":%02d", minute)
            if seconds { display += String(format: ":%02d", second) }
            return (display, use24Hour ? nil : (hour < 12 ? "AM" : "PM"))
        }

        struct Tick {
            let epoch: Int64
            let display: String
            let ampm: String?
            let lateness: Double
        }

        /// The `~/time` messages after index `after`; lateness is measured on the node's clock.
        static func ticks(_ client: TestClient, _ node: NodeProcess, after: Int) -> [Tick] {
            let root = "noiseclock/\(node.nodeID)"
            return client.messages.dropFirst(after).filter { $0.topic == "\(root)/time" }.compactMap { message in
                guard let json = message.json, let epoch = json["epoch"]?.intValue, let display = json["display"]?.stringValue else { return nil }
                return Tick(epoch: Int64(epoch), display: display, ampm: json["ampm"]?.stringValue,
                            lateness: node.nodeTime(of: message.at).timeIntervalSince1970 - Double(epoch))
            }
        }

        /// Waits for `count` ticks after index `after` and returns them.
        static func waitForTicks(_ count: Int, _ client: TestClient, _ node: NodeProcess, after: Int, timeout: Double = 15) async throws -> [Tick] {
            let deadline = Date().addingTimeInterval(timeout)
            while ticks(client, node, after: after).count < count {
                guard Date() < deadline else { throw TestFailure("fewer than \(count) ~/time messages within \(timeout) s") }
                try await Task.sleep(for: .milliseconds(10))
            }
            return ticks(client, node, after: after)
        }

        /// Sends a style change and returns the message index of its response: later `~/time`
        /// messages were made under the new style.
        static func restyle(_ client: TestClient, _ root: String, _ payload: String) async throws -> Int {
            let mark = client.messages.count
            client.publish("\(root)/style/set", payload)
            let response = try await client.waitFor("\(root)/response", after: mark)
            #expect(response.json?["ok"] == true)
            return client.messages.lastIndex { $0.topic == "\(root)/response" } ?? mark
        }

        @Test func displayAndCadenceFollowTheStyle() async throws {
            let online = try await OnlineNode.start()
            defer { online.shutdown() }
            let (node, client, root) = (online.node, online.client, online.root)
            // 19:05:20 tomorrow on the node's clock: 40 s from the next minute.
            try await node.setClock(to: NodeTime.minute(hour: 19, minute: 5).addingTimeInterval(20))

            // 24-hour with seconds: `19:05:21`, a message on every second.
            var mark = try await Self.restyle(client, root, #"{"show_seconds": true}"#)
            let seconds24 = try await Self.waitForTicks(3, client, node, after: mark)
            // 12-hour: `7:05:24` with AM/PM, at once.
            mark = try await Self.restyle(client, root, #"{"use_24_hour": false}"#)
            let seconds12 = try await Self.waitForTicks(2, client, node, after: mark)
            for (ticks, use24Hour) in [(seconds24, true), (seconds12, false)] {
                #expect(ticks.count >= 2, "\(ticks.count) ticks (24h: \(use24Hour))")
                #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1.epoch == $0.epoch + 1 }, "not every second: \(ticks.map(\.epoch))")
                for tick in ticks {
                    let expected = Self.expectedDisplay(epoch: tick.epoch, use24Hour: use24Hour, seconds: true)
                    #expect(tick.display == expected.display && tick.ampm == expected.ampm, "\(tick)")
                    #expect(tick.lateness >= 0 && tick.lateness < 0.5, "\(tick)")
                }
            }
            let lateness = (seconds24 + seconds12).map { ($0.lateness * 1000).rounded() }
            print("second cadence lateness (ms): \(lateness)")

            // Seconds off: nothing until the next minute boundary, then `7:06` with AM/PM. The clock
            // moves to 0.3 s before that minute; a command answered after the minute message closes
            // the window.
            mark = try await Self.restyle(client, root, #"{"show_seconds": false}"#)
            let now = node.now.timeIntervalSince1970
            let nextMinute = (now / 60).rounded(.down) * 60 + 60
            try await node.setClock(to: Date(timeIntervalSince1970: nextMinute - 0.3))
            try await client.waitFor("\(root)/time", timeout: 10, after: mark)
            try await client.barrier(root)
            let minutes = Self.ticks(client, node, after: mark)
            print("after show_seconds off: \(minutes)")
            #expect(minutes.count == 1, "expected exactly the minute message: \(minutes)")
            if let tick = minutes.first {
                let expected = Self.expectedDisplay(epoch: tick.epoch, use24Hour: false, seconds: false)
                #expect(tick.epoch == Int64(nextMinute) && tick.display == expected.display && tick.ampm == expected.ampm, "\(tick)")
                #expect(tick.lateness >= 0 && tick.lateness < 0.5, "\(tick)")
            }
        }
    }
}
