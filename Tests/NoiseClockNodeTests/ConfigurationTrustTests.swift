import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockNode
@testable import NoiseClockWeb

/// Tighter values (issue 37, item 6; http-api.md v1.4): a sound device is a name (no `file:`),
/// a path holds no NUL or control character, and `web.enabled` is not the web app's to set.
/// Each refused by the one loader, wherever the value comes from: the file (exit 2 naming the
/// key), the environment, the web app's settings (nothing saved), a restored backup.
@Suite struct ConfigurationTrustTests {
    @Test(arguments: [
        ("audio:\n  device: \"file:'/tmp/victim'\"", "audio.device", "never writes a file"),
        ("audio:\n  device: \"tee:'/tmp/victim',raw\"", "audio.device", "never writes a file"),
        ("audio:\n  device: \"{type file slave.pcm null file /tmp/victim}\"", "audio.device", "never writes a file"),
        ("audio:\n  sounds_dir: \"/srv/sounds\\0/etc\"", "audio.sounds_dir", "must not contain NUL"),
        ("audio:\n  sounds_dir: \"/srv/sounds\\n\"", "audio.sounds_dir", "must not contain a control character"),
        ("state_dir: \"/var/lib/noiseclock\\0x\"", "state_dir", "must not contain NUL"),
        ("battery:\n  path: \"/sys\\tclass\"", "battery.path", "must not contain a control character"),
        ("web:\n  token_file: \"/tmp/token\\0\"", "web.token_file", "must not contain NUL"),
        ("mqtt:\n  username: u\n  password_file: \"/tmp/pw\\0\"", "mqtt.password_file", "must not contain NUL"),
        ("mqtt:\n  tls:\n    ca_file: \"/tmp/ca\\u001B.pem\"", "mqtt.tls.ca_file", "must not contain a control character"),
        ("stream:\n  ca_file: \"/tmp/ca\\0\"", "stream.ca_file", "must not contain NUL"),
        ("buttons:\n  - id: b\n    input: {device: \"/dev/input/event3\\0\", key: KEY_A}\n    press: noise/toggle", "buttons[0].input.device",
            "must not contain NUL"),
    ])
    func theFileIsRefusedNamingTheKey(yaml: String, key: String, message: String) async throws {
        let error = try #require(await configurationError(yaml))
        #expect(error.key == key, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.exitCode == 2)
        #expect(!error.description.contains("\0") && !error.description.contains("\u{1B}"))
    }

    @Test func theEnvironmentIsRefusedToo() async throws {
        let error = try #require(await configurationError("timezone: UTC", environment: ["NOISECLOCK_AUDIO_DEVICE": "file:/tmp/victim"]))
        #expect(error.key == "audio.device" && error.description.contains("(from NOISECLOCK_AUDIO_DEVICE)"), "\(error)")
        #expect(await configurationError("timezone: UTC", environment: ["NOISECLOCK_AUDIO_DEVICE": "plughw:CARD=USB,DEV=0"]) == nil)
    }

    @Test(arguments: [
        (#"{"audio.device": "file:'/tmp/victim'"}"#, "audio.device"),
        (#"{"audio.device": "tee:'/tmp/victim',raw"}"#, "audio.device"),
        (#"{"audio.sounds_dir": "/srv/sounds\u0000/etc"}"#, "audio.sounds_dir"),
        (#"{"audio.sounds_dir": "/srv/\u001b[2Jsounds"}"#, "audio.sounds_dir"),
        (#"{"battery.path": "/sys\u0000"}"#, "battery.path"),
        (#"{"web.enabled": false}"#, "web.enabled"),
        (#"{"web.enabled": true}"#, "web.enabled"),
    ])
    func theWebAppsSaveIsRefusedAndNothingIsSaved(body: String, key: String) throws {
        let node = ConfigurationWebSettingsTests.Node()
        let api = node.api()
        let refused = api.change(Array(body.utf8))
        #expect(refused.status == 400, "\(body): \(String(decoding: refused.body, as: UTF8.self))")
        let error = try #require(ConfigurationWebSettingsTests.error(refused))
        #expect(error["field"] == .string(key), "\(error)")
        #expect(node.stored == nil, "settings.json was written")
        let saved = api.change(Array(#"{"audio.device": "plughw:CARD=USB,DEV=0", "audio.sounds_dir": "/srv/sounds"}"#.utf8))
        #expect(saved.status == 200, "\(String(decoding: saved.body, as: UTF8.self))")
    }

    @Test func webEnabledIsListedAsNotSettableAndAStoredOneIsIgnored() throws {
        let node = ConfigurationWebSettingsTests.Node()
        let shown = try #require(ConfigurationWebSettingsTests.body(node.api().current()))
        #expect(shown["not_settable"]?["web.enabled"]?.stringValue?.contains("lock you out") == true, "\(shown)")
        // Saved by an older node: the next start serves the web app anyway.
        node.settings(#"{"version": 1, "values": {"web.enabled": false, "timezone": "Asia/Seoul"}}"#)
        let (loaded, _) = try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed")
        #expect(loaded.configuration.web.enabled && loaded.configuration.timezone == "Asia/Seoul")
        // Nor does it travel in a backup; an older node's backup that carries it still restores
        // (the key is ignored at start, as in settings.json).
        let backup = try StateBackup.backup(directory: node.state, nodeID: "bed", now: Instant(seconds: 0))
        #expect(backup["settings"]?["web.enabled"] == nil && backup["settings"]?["timezone"] == "Asia/Seoul", "\(backup["settings"] ?? .null)")
        let older = try #require(try JSONParser().parse(Array(#"{"web.enabled": false, "timezone": "Asia/Seoul"}"#.utf8)).objectValue)
        #expect(WebSettings.restoreProblem(older, configPath: node.path, environment: [:]) == nil)
        #expect(try NodeConfiguration.loadNow(path: node.path, environment: ["NOISECLOCK_WEB_ENABLED": "false"], hostName: "bed")
            .loaded.configuration.web.enabled == false)
    }

    @Test func aBackupsSettingsAreRefusedAlike() throws {
        let node = ConfigurationWebSettingsTests.Node()
        for (settings, field) in [(#"{"audio.device": "file:/tmp/victim"}"#, "settings.audio.device"),
                                  (#"{"audio.sounds_dir": "/x\u0000"}"#, "settings.audio.sounds_dir")] {
            let object = try #require(try JSONParser().parse(Array(settings.utf8)).objectValue)
            let problem = try #require(WebSettings.restoreProblem(object, configPath: node.path, environment: [:]))
            #expect(problem.field == field, "\(problem)")
        }
    }
}
