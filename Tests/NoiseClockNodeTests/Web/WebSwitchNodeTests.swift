import Foundation
import Glibc
import NoiseClockCore
import Testing
@testable import NoiseClockNode

/// A new web address from the web app (issue 30, "No lock-out"): it takes effect at once, stays
/// when confirmed through it, and goes back by itself after 60 s of the node's clock (which the
/// test moves instead of waiting).
@Suite struct WebSwitchNodeTests {
    @Test func aNewPortOrAccessStaysWhenConfirmedThroughItAndRevertsOtherwise() async throws {
        let first = try freeLoopbackPort()
        let second = try freeLoopbackPort()
        let third = try freeLoopbackPort()
        let online = try await OnlineNode.start(
            environment: ["NOISECLOCK_WEB_ENABLED": "true"], yamlExtra: "web:\n  host: 127.0.0.1\n  port: \(first)\n  auth: token")
        defer { online.shutdown() }
        #expect(try await answers(first))
        let bearer = ["Authorization": "Bearer \(try #require(online.node.webToken))"]
        func post(_ port: Int, _ command: String, _ body: String) async throws -> (Int, JSONValue) {
            let reply = try await WebTestClient.request(port: port, "POST", "/api/" + command, headers: bearer, body: body)
            return (reply.status, try JSONParser().parse(reply.body))
        }

        let (nothingStatus, nothing) = try await post(first, "settings/confirm", "{}")
        #expect(nothingStatus == 400 && nothing["error"]?["code"] == "not_found", "\(nothing)")
        let (status, changed) = try await post(first, "settings", #"{"web.port": \#(second)}"#)
        #expect(status == 200, "\(changed)")
        #expect(changed["applies"]?["web.port"] == "now")
        #expect(changed["web"]?["state"] == "pending", "\(changed["web"] ?? .null)")
        #expect(changed["web"]?["address"] == .string("http://127.0.0.1:\(second)/"))
        #expect((changed["web"]?["seconds_left"]?.intValue ?? 0) > 50)
        #expect(try await answers(second))
        #expect(try await answers(first), "the old address stays until the new one is confirmed")
        // Kept only once confirmed: a node restarted meanwhile comes back at the address that worked.
        let settingsFile = online.node.stateDirectory.appendingPathComponent("settings.json")
        #expect(try JSONParser().parse([UInt8](Data(contentsOf: settingsFile)))["values"]?["web.port"] == nil)
        // Only the new address confirms it: the old one may not reach the new at all.
        let (refusedStatus, refused) = try await post(first, "settings/confirm", "{}")
        #expect(refusedStatus == 400 && refused["error"]?["message"]?.stringValue?.contains("\(second)") == true, "\(refused)")
        let (confirmedStatus, confirmed) = try await post(second, "settings/confirm", "{}")
        #expect(confirmedStatus == 200, "\(confirmed)")
        #expect(confirmed["result"]?["state"] == "confirmed")
        #expect(try JSONParser().parse([UInt8](Data(contentsOf: settingsFile)))["values"]?["web.port"] == .int(Int64(second)))
        #expect(try await closes(first))
        // `noiseclock web-url` and `restore` find it there.
        let lock = try JSONParser().parse([UInt8](Data(contentsOf: online.node.stateDirectory.appendingPathComponent("node.lock"))))
        #expect(lock["web"]?["port"] == .int(Int64(second)), "\(lock)")

        // Not confirmed: back to the second port once 60 s have passed on the node's clock.
        #expect(try await post(second, "settings", #"{"web.port": \#(third)}"#).0 == 200)
        #expect(try await answers(third))
        try await online.node.setClock(to: online.node.now.addingTimeInterval(60))
        let shifted = Date()
        #expect(try await closes(third))
        print("web roll-back: the new port closed \(Int(Date().timeIntervalSince(shifted) * 1000)) ms after the node's clock passed 60 s")
        let shown = try JSONParser().parse(try await WebTestClient.request(port: second, "GET", "/api/settings", headers: bearer).body)
        #expect(shown["web"]?["state"] == "reverted", "\(shown["web"] ?? .null)")
        #expect(shown["web"]?["reason"]?.stringValue?.contains("not confirmed") == true)
        #expect(shown["values"]?["web.port"] == .int(Int64(second)))
        #expect(shown["sources"]?["web.port"] == "web")

        // New access on the same address: in effect at once, confirmed with it (here: without a token).
        #expect(try await WebTestClient.request(port: second, "GET", "/api/settings").status == 401)
        #expect(try await post(second, "settings", #"{"web.auth": "none"}"#).0 == 200)
        #expect(try await WebTestClient.request(port: second, "GET", "/api/settings").status == 200)
        let open = try await WebTestClient.request(port: second, "POST", "/api/settings/confirm", body: "{}")
        #expect(open.status == 200, "\(open.text)")
        #expect(try JSONParser().parse(open.body)["result"]?["state"] == "confirmed")

        // Only the host: the new address alone (it cannot be bound beside the old on one port), confirmed through it.
        #expect(try await post(second, "settings", #"{"web.host": "0.0.0.0"}"#).0 == 200)
        // The server moves at its next turn: a connection queued on the old socket meanwhile is dropped.
        var wide: WebReply?
        let deadline = Date().addingTimeInterval(5)
        while wide == nil, Date() < deadline {
            wide = try? await WebTestClient.request(port: second, "POST", "/api/settings/confirm", body: "{}")
        }
        #expect(wide?.status == 200, "\(wide?.text ?? "no answer")")
        let host = try JSONParser().parse(try await WebTestClient.request(port: second, "GET", "/api/settings").body)["values"]?["web.host"]
        #expect(host == "0.0.0.0")
    }

    /// `/healthz` answers on `port` (within 5 s: the server binds at its next turn).
    func answers(_ port: Int) async throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let reply = try? await WebTestClient.request(port: port, "GET", "/healthz"), reply.status == 200 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Nothing listens on `port` any more (within 5 s).
    func closes(_ port: Int) async throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if (try? await WebTestClient.request(port: port, "GET", "/healthz")) == nil { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
