import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockNode
@testable import NoiseClockWeb

/// Where values live (issue 30, item 2): `<state_dir>/settings.json` over the file, the
/// environment over both; a change checked by the node's own loader, refused in the file's words.
@Suite struct ConfigurationWebSettingsTests {
    struct Node {
        let scratch = ConfigScratch()
        var state: String { scratch.directory + "/state" }
        let path: String

        init(_ yaml: String = "timezone: UTC\nspeech:\n  rate: 150\n") {
            path = scratch.config(yaml + "state_dir: \(scratch.directory)/state\n")
        }

        func settings(_ json: String) { scratch.write("state/settings.json", json) }
        var stored: String? { try? String(contentsOfFile: state + "/settings.json", encoding: .utf8) }

        func api(_ environment: [String: String] = [:]) -> SettingsAPI {
            SettingsAPI(configPath: path, environment: environment, stateDirectory: state)
        }
    }

    static func source(_ values: ConfigurationValues, _ path: String) -> String {
        values.source(ConfigurationSchema.keysByPath[path]!)
    }

    @Test func environmentBeatsTheWebAppWhichBeatsTheFileWhichBeatsTheDefault() throws {
        let node = Node()
        node.settings(#"{"version": 1, "values": {"timezone": "Asia/Seoul", "speech.rate": 200, "locale": "ko"}}"#)
        let (loaded, values) = try NodeConfiguration.loadNow(path: node.path, environment: ["NOISECLOCK_LOCALE": "en"], hostName: "bed")
        #expect(loaded.configuration.timezone == "Asia/Seoul")
        #expect(loaded.configuration.speech.rate == 200)
        #expect(loaded.configuration.locale == .en)
        #expect(Self.source(values, "timezone") == "web")
        #expect(Self.source(values, "locale") == "environment")
        #expect(Self.source(values, "state_dir") == "file")
        #expect(Self.source(values, "mqtt.port") == "default")
    }

    @Test func storedSettingsThatNoLongerPassNeverKeepTheNodeFromStarting() throws {
        let node = Node()
        node.settings(#"{"version": 1, "values": {"speech.rate": 5000}}"#)
        let (loaded, values) = try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed")
        #expect(loaded.configuration.speech.rate == 150)
        #expect(Self.source(values, "speech.rate") == "file")
        #expect(loaded.warnings.contains { $0.key == "settings.json" && $0.message.contains("speech.rate") }, "\(loaded.warnings)")
    }

    static func error(_ response: HTTPResponse) -> JSONValue? { (try? JSONParser().parse(response.body))?["error"] }
    static func body(_ response: HTTPResponse) -> JSONValue? { try? JSONParser().parse(response.body) }

    @Test func aRefusedValueNamesTheKeyInTheFilesWordsAndChangesNothing() throws {
        let node = Node()
        let fileSays: String
        let fromTheFile = Node("speech:\n  rate: 500\n")
        do {
            _ = try NodeConfiguration.loadNow(path: fromTheFile.path, environment: [:], hostName: "bed")
            Issue.record("the file's 500 was taken")
            return
        } catch {
            fileSays = error.message
        }
        let refused = node.api().change(Array(#"{"timezone": "Asia/Seoul", "speech.rate": 500}"#.utf8))
        #expect(refused.status == 400)
        #expect(Self.error(refused)?["field"] == "speech.rate")
        #expect(Self.error(refused)?["message"]?.stringValue?.hasPrefix("speech.rate: \(fileSays)") == true, "\(Self.error(refused)!) vs \(fileSays)")
        #expect(node.stored == nil)
        let wrongType = node.api().change(Array(#"{"mqtt.port": "eighty"}"#.utf8))
        #expect(Self.error(wrongType)?["message"]?.stringValue?.contains("expected an integer") == true)
        let cases = [(#"{"state_dir": "/tmp"}"#, "state_dir"), (#"{"no.such": 1}"#, "no.such"), (#"{"timezone": "Mars/Base"}"#, "timezone")]
        for (body, field) in cases {
            let response = node.api().change(Array(body.utf8))
            #expect(response.status == 400)
            #expect(Self.error(response)?["field"] == .string(field), "\(body)")
        }
        // A section given as the file nests it: refused with the key's path to use instead.
        let nested = node.api().change(Array(#"{"speech": {"rate": 200}}"#.utf8))
        let nestedSays = Self.error(nested)?["message"]?.stringValue ?? ""
        #expect(nestedSays.contains("a section, not a key") && nestedSays.contains("\"speech."), "\(nestedSays)")
        let locked = node.api(["NOISECLOCK_TIMEZONE": "UTC"]).change(Array(#"{"timezone": "Asia/Seoul"}"#.utf8))
        #expect(Self.error(locked)?["message"]?.stringValue?.contains("set by NOISECLOCK_TIMEZONE") == true)
        #expect(node.stored == nil)
    }

    @Test func anAcceptedChangeIsKeptAndResetGoesBackToTheFile() throws {
        let node = Node()
        let changed = node.api().change(Array(#"{"timezone": "Asia/Seoul", "speech.rate": 180}"#.utf8))
        #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
        let view = try #require(Self.body(changed))
        #expect(view["values"]?["timezone"] == "Asia/Seoul")
        #expect(view["sources"]?["timezone"] == "web")
        #expect(view["applies"]?["timezone"] == "now")
        // The broker's connection and the web address apply live (on trial); topics at the next start.
        #expect(view["applies"]?["mqtt.host"] == "now" && view["applies"]?["web.port"] == "now")
        #expect(view["applies"]?["mqtt.base_topic"] == "restart")
        // The sound device and the sounds folder apply at once too (issue 30: the engine and the watcher move).
        #expect(view["applies"]?["audio.device"] == "now")
        #expect(view["applies"]?["audio.sounds_dir"] == "now")
        #expect(view["values"]?.objectValue?.keys.count == ConfigurationSchema.keys.count)
        #expect(try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed").loaded.configuration.timezone == "Asia/Seoul")
        // null takes a key back too, and leaves nothing of it in settings.json.
        let nulled = node.api().change(Array(#"{"speech.rate": null}"#.utf8))
        #expect(try #require(Self.body(nulled))["sources"]?["speech.rate"] == "file")
        #expect(node.stored?.contains("speech.rate") == false, "\(node.stored ?? "")")
        _ = node.api().change(Array(#"{"speech.rate": 180}"#.utf8))
        let reset = node.api().reset(Array(#"{"keys": ["timezone"]}"#.utf8))
        let after = try #require(Self.body(reset))
        #expect(after["values"]?["timezone"] == "UTC")
        #expect(after["sources"]?["timezone"] == "file")
        #expect(after["sources"]?["speech.rate"] == "web")
    }
}
