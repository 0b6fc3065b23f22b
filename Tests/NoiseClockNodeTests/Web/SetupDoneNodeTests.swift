import Foundation
import NoiseClockCore
import Testing

/// `POST /api/setup/done` on a real node (http-api v1.4): until it, `/api/state`'s `node.setup_done`
/// is false; it echoes its `request_id`, writes `"setup_done": true` into `settings.json`, which a
/// later Save keeps; a body with more than a request id is refused and changes nothing.
@Suite struct SetupDoneNodeTests {
    @Test func setupDoneIsKeptInSettingsAndSurvivesASave() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let file = rig.node.stateDirectory.appendingPathComponent("settings.json")
        func stored() throws -> JSONValue? {
            guard let data = try? Data(contentsOf: file) else { return nil }
            return try JSONParser().parse(Array(data))
        }
        func setupDone() async throws -> JSONValue? { try JSONParser().parse(try await rig.get("/api/state").body)["node"]?["setup_done"] }
        #expect(try await setupDone() == false)

        let refused = try await rig.post("setup/done", #"{"request_id": "no", "now": true}"#)
        #expect(refused.status == 400, "\(refused.text)")
        #expect(try JSONParser().parse(refused.body)["request_id"] == "no", "\(refused.text)")
        #expect(try stored() == nil, "a refusal writes nothing")

        let done = try await rig.post("setup/done", #"{"request_id": "fin"}"#)
        #expect(done.status == 200, "\(done.text)")
        let answer = try JSONParser().parse(done.body)
        #expect(answer["request_id"] == "fin" && answer["result"]?["setup_done"] == true, "\(done.text)")
        #expect(try stored()?["setup_done"] == true)
        #expect(try await setupDone() == true)

        // A Save afterwards writes the file again, the flag with it.
        let saved = try await rig.post("settings", #"{"timezone": "Asia/Seoul"}"#)
        #expect(saved.status == 200, "\(saved.text)")
        let after = try stored()
        #expect(after?["setup_done"] == true && after?["values"]?["timezone"] == "Asia/Seoul", "\(after?.serialized ?? "none")")
        #expect(try await setupDone() == true)
    }
}
