import Foundation
import NoiseClockCore
import Testing

/// `~/speech` on real nodes with the real eSpeak NG and its data: `ok` from the files at start
/// (eSpeak NG not loaded), `unavailable` for a voice that does not exist, and for data that looks
/// whole but eSpeak NG refuses (an empty `phondata`) after the first utterance, the node going on
/// (eSpeak NG's `espeak_Initialize` would have ended the process).
@Suite struct SpeechStatusTests {
    /// eSpeak NG's data, every file linked from the system's but `phondata`, which is empty.
    static func damagedData() throws -> URL {
        let system = "/usr/lib/x86_64-linux-gnu/espeak-ng-data"
        let root = try makeTemporaryDirectory(prefix: "espeak")
        let data = root.appendingPathComponent("espeak-ng-data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: system) where name != "phondata" {
            try FileManager.default.createSymbolicLink(atPath: data.appendingPathComponent(name).path, withDestinationPath: "\(system)/\(name)")
        }
        guard FileManager.default.createFile(atPath: data.appendingPathComponent("phondata").path, contents: Data()) else {
            throw TestFailure("cannot write the empty phondata")
        }
        return root
    }

    @Test func okFromTheFilesUnavailableForAnUnknownVoiceOrDataESpeakRefuses() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let damaged = try Self.damagedData()
        defer { try? FileManager.default.removeItem(at: damaged) }
        let good = try rig.makeNode("speech-ok")
        let unknown = try NodeProcess(brokerPort: rig.broker.port, nodeID: "speech-voice", yamlExtra: "speech:\n  voice: xx-nowhere")
        // A sound device that opens (ALSA's null), so the refusal is eSpeak NG's and not the device's.
        let refused = try rig.makeNode("speech-refused", environment: ["ESPEAK_DATA_PATH": damaged.path, "NOISECLOCK_AUDIO_DEVICE": "null"])
        for node in [good, unknown, refused] { try await rig.start(node) }
        defer { for node in [good, unknown, refused] { node.killHard() } }

        #expect(try await rig.retained(good, "speech") == ["status": "ok", "voice": "en", "error": nil])
        #expect(try await rig.retained(unknown, "speech") == [
            "status": "unavailable", "voice": "xx-nowhere", "error": #"no eSpeak NG voice "xx-nowhere" (see espeak-ng --voices)"#,
        ])
        #expect(try await rig.retained(refused, "speech") == ["status": "ok", "voice": "en", "error": nil])

        let mark = rig.client.messages.count
        let response = try await rig.command(refused, "say", "Hello")
        let error = "eSpeak NG could not start: Wrong version of espeak-ng-data (is espeak-ng-data installed?)"
        #expect(response["ok"] == false && response["error"]?["code"] == "speech_unavailable", "\(response.serialized)")
        #expect(response["error"]?["message"] == .string(error))
        let status = try await rig.client.waitFor("\(rig.root(refused))/speech", after: mark)
        #expect(status.json == ["status": "unavailable", "voice": "en", "error": .string(error)])
        // The node goes on: it answers, and its retained status says why it cannot speak.
        try await rig.ok(refused, "noise/volume/set", "30")
        #expect(refused.isRunning)
        #expect(try await rig.retained(refused, "speech")["status"] == "unavailable")
    }

    /// A node whose sound device cannot be opened (`~/audio` unavailable) refuses to speak: the
    /// words would not be heard. The answer names it as the failsafe and the readiness check do,
    /// and `~/speech` stays `ok` (eSpeak NG is not at fault).
    @Test func aNodeWithoutASoundDeviceAnswersAudioUnavailable() async throws {
        let rig = try await AlarmRig()
        defer { rig.shutdown() }
        let deaf = try rig.makeNode("speech-deaf")
        try await rig.start(deaf)
        defer { deaf.killHard() }
        let audio = try await rig.client.waitFor("\(rig.root(deaf))/audio", timeout: 10) { $0.json?["status"] == "unavailable" }
        let reason = try #require(audio.json?["error"]?.stringValue)
        for (command, payload) in [("say", "Hello"), ("speak/time", ""), ("speak/next_alarm", "")] {
            let response = try await rig.command(deaf, command, payload)
            #expect(response["ok"] == false && response["command"] == .string(command), "\(response.serialized)")
            #expect(response["error"]?["code"] == "audio_unavailable", "\(response.serialized)")
            #expect(response["error"]?["message"]?.stringValue?.hasSuffix(reason) == true, "\(response.serialized)")
        }
        #expect(try await rig.retained(deaf, "speech")["status"] == "ok")
    }
}
