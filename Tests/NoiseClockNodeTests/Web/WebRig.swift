import Foundation
import Testing

/// A broker, the real node with its web app on a free loopback port, and an MQTT client that
/// has seen the node come online and the web app answer `/healthz`.
struct WebRig {
    let online: OnlineNode
    let port: Int
    let token: String
    var node: NodeProcess { online.node }
    var client: TestClient { online.client }
    var root: String { online.root }
    var bearer: [String: String] { ["Authorization": "Bearer \(token)"] }

    static func start(auth: String = "token", environment: [String: String] = [:], yamlExtra: String = "") async throws -> WebRig {
        let port = try freeLoopbackPort()
        let web = NodeProcess.web(port: port, auth: auth).merging(environment) { $1 }
        let online = try await OnlineNode.start(environment: web, yamlExtra: yamlExtra)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let reply = try? await WebTestClient.request(port: port, "GET", "/healthz"), reply.status == 200 {
                let token = auth == "token" ? try #require(online.node.webToken) : ""
                return WebRig(online: online, port: port, token: token)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the web app did not answer on port \(port):\n\(online.node.log)")
    }

    func get(_ path: String, headers: [String: String]? = nil, from source: String = "127.0.0.1") async throws -> WebReply {
        try await WebTestClient.request(port: port, "GET", path, headers: headers ?? bearer, from: source)
    }

    func post(_ command: String, _ body: String, headers: [String: String]? = nil, from source: String = "127.0.0.1") async throws -> WebReply {
        try await WebTestClient.request(port: port, "POST", "/api/" + command, headers: headers ?? bearer, body: body, from: source)
    }

    func events(headers: [String: String]? = nil, from source: String = "127.0.0.1") async throws -> EventStreamClient {
        try await EventStreamClient(port: port, headers: headers ?? bearer, from: source)
    }

    /// The session cookie (`name=value`) as `?token=` sets it.
    func sessionCookie() async throws -> String {
        let signIn = try await get("/?token=\(token)", headers: [:])
        let cookie = try #require(signIn.headers["set-cookie"])
        return String(cookie.split(separator: ";")[0])
    }

    /// Adds an alarm and rings it with `alarm/test` (over MQTT); returns once `~/alarm` is ringing.
    func ringTestAlarm() async throws {
        client.publish("\(root)/alarm/add", #"{"id": "web", "time": "06:00", "label": "Web"}"#)
        client.publish("\(root)/alarm/test", #"{"id": "web"}"#)
        try await client.waitFor("\(root)/alarm", where: { $0.json?["state"] == .string("ringing") })
    }

    func shutdown() { online.shutdown() }
}
