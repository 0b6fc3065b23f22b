import Foundation
import Testing

/// Access to the web app (http-api.md "Access"), through real HTTP to the real node.
@Suite("Web access") struct WebAccessTests {
    @Test("the token file is created 0600 with at least 128 random bits and is never logged")
    func tokenFile() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let path = rig.node.stateDirectory.appendingPathComponent("web_token").path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // URL-safe base64: 6 bits a character, so 22 characters hold 128 bits.
        #expect(rig.token.count >= 22)
        #expect(rig.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        _ = try await rig.get("/api/state")
        _ = try await rig.get("/?token=\(rig.token)")
        #expect(!rig.node.log.contains(rig.token))
    }

    @Test("without access every path but /healthz is refused and shows no state")
    func everythingNeedsAccess() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.post("alarm/add", #"{"id": "secret", "time": "06:10", "label": "Secret label"}"#).status == 200)
        let health = try await rig.get("/healthz", headers: [:])
        #expect(health.status == 200)
        #expect(health.json?["mqtt"] as? String == "connected")
        // The test's ALSA device does not exist: /healthz says what ~/audio says.
        let audio = try await rig.client.waitFor("\(rig.root)/audio")
        #expect(audio.json?["status"] == .string("unavailable"))
        #expect(health.json?["audio"] as? String == "unavailable")

        for path in ["/api/state", "/api/alarms", "/api/nothing"] {
            let reply = try await rig.get(path, headers: [:])
            #expect(reply.status == 401, "\(path)")
            #expect(reply.errorCode == "unauthorized", "\(path)")
            #expect(!reply.text.contains("Secret label"))
        }
        let command = try await rig.post("alarm/delete", #"{"id": "secret"}"#, headers: [:])
        #expect(command.status == 401)
        #expect(command.errorCode == "unauthorized")
        for path in ["/", "/alarms", "/app.js", "/no-such-page"] {
            let reply = try await rig.get(path, headers: [:])
            #expect(reply.status == 401, "\(path)")
            #expect(reply.text.contains("data-nc=\"login-form\""), "\(path)")
            #expect(!reply.text.contains("Secret label"))
        }
        let stream = try await rig.events(headers: [:])
        #expect(stream.status == 401)
        // The refused delete changed nothing.
        let state = try await rig.get("/api/state")
        #expect((state.json?["alarms"] as? [[String: Any]])?.first?["id"] as? String == "secret")
    }

    @Test("a bearer token or the session cookie lets in; ?token= sets the cookie and redirects without it")
    func bearerCookieAndQuery() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        #expect(try await rig.get("/api/state").status == 200)
        let signIn = try await rig.get("/alarms?token=\(rig.token)&tab=2", headers: [:])
        #expect(signIn.status == 303)
        #expect(signIn.headers["location"] == "/alarms?tab=2")
        let cookie = try #require(signIn.headers["set-cookie"])
        #expect(cookie.hasPrefix("noiseclock_session="))
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(attribute)) }
        let pair = String(cookie.split(separator: ";")[0])
        let withCookie = try await rig.get("/api/state", headers: ["Cookie": pair])
        #expect(withCookie.status == 200)
        #expect(withCookie.json?["style"] != nil)
        let wrongCookie = try await rig.get("/api/state", headers: ["Cookie": "noiseclock_session=nope"])
        #expect(wrongCookie.status == 401)
        let wrongQuery = try await rig.get("/?token=nope", headers: [:])
        #expect(wrongQuery.status == 401)
        #expect(wrongQuery.headers["set-cookie"] == nil)
    }

    @Test("more than 10 wrong tries in a minute get 429 for the next minute, the right token too")
    func throttle() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        for attempt in 1...10 {
            let reply = try await rig.get("/api/state", headers: ["Authorization": "Bearer wrong-\(attempt)"])
            #expect(reply.status == 401, "attempt \(attempt)")
        }
        let eleventh = try await rig.get("/api/state", headers: ["Authorization": "Bearer wrong-11"])
        #expect(eleventh.status == 429)
        #expect(Int(eleventh.headers["retry-after"] ?? "") ?? 0 > 50)
        #expect(try await rig.get("/api/state").status == 429)
        #expect(try await rig.get("/healthz", headers: [:]).status == 200)
        // MQTT is not affected.
        try await rig.client.barrier(rig.root)
    }

    @Test("auth: none lets everyone in, and warns when not on loopback only")
    func authNone() async throws {
        let loopback = try await WebRig.start(auth: "none")
        defer { loopback.shutdown() }
        #expect(try await loopback.get("/api/state", headers: [:]).status == 200)
        #expect(!loopback.node.log.contains("web.auth is none"))

        let port = try freeLoopbackPort()
        var environment = NodeProcess.web(port: port, auth: "none")
        environment["NOISECLOCK_WEB_HOST"] = "0.0.0.0"
        let open = try await OnlineNode.start(environment: environment)
        defer { open.shutdown() }
        try await open.client.barrier(open.root)
        #expect(open.node.log.contains("web.auth is none"))
    }

    @Test("a port that cannot be bound costs only the web app: an error naming web.port, MQTT and alarms go on")
    func portTaken() async throws {
        let blocker = try LoopbackListener(backlog: 1)
        let port = blocker.port

        let online = try await OnlineNode.start(environment: NodeProcess.web(port: port))
        defer { online.shutdown() }
        online.client.publish("\(online.root)/alarm/add", #"{"id": "web", "time": "06:00"}"#)
        online.client.publish("\(online.root)/alarm/test", #"{"id": "web"}"#)
        try await online.client.waitFor("\(online.root)/alarm", where: { $0.json?["state"] == .string("ringing") })
        #expect(online.node.log.contains("web.port: cannot listen"))
        #expect(online.node.isRunning)
    }
}
