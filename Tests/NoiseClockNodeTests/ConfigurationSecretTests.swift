import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockNode
@testable import NoiseClockWeb

/// `mqtt.password` (http-api.md v1.3, Settings): set from the web app or the environment, never
/// shown (`"set"` or null), never in the YAML file, in a backup only with its secrets.
@Suite struct ConfigurationSecretTests {
    static let password = "hunter2-Pa55"
    typealias Node = ConfigurationWebSettingsTests.Node

    static func body(_ response: HTTPResponse) -> JSONValue? { try? JSONParser().parse(response.body) }
    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
    static func change(_ json: String) -> [UInt8] { Array(json.utf8) }

    @Test func setFromTheWebAppItIsUsedButShownOnlyAsSet() throws {
        let node = Node("mqtt:\n  username: clock\n")
        let saved = node.api().change(Self.change(#"{"mqtt.password": "\#(Self.password)"}"#))
        #expect(saved.status == 200, "\(Self.text(saved))")
        #expect(Self.body(saved)?["values"]?["mqtt.password"] == "set")
        #expect(Self.body(saved)?["sources"]?["mqtt.password"] == "web")
        #expect(Self.body(saved)?["applies"]?["mqtt.password"] == "now")
        #expect(!Self.text(saved).contains(Self.password))
        let shown = node.api().current()
        #expect(Self.body(shown)?["values"]?["mqtt.password"] == "set")
        #expect(!Self.text(shown).contains(Self.password))
        let loaded = try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed").loaded.configuration
        #expect(loaded.mqtt.password?.value == Self.password)
        #expect(loaded.mqtt.passwordFile == nil)
        // settings.json holds it: the node's user alone reads the file.
        var info = stat()
        #expect(stat(node.state + "/settings.json", &info) == 0 && info.st_mode & 0o777 == 0o600, "\(String(info.st_mode & 0o777, radix: 8))")
        // "Back to the file's value": none here, so null.
        let reset = node.api().reset(Self.change(#"{"keys": ["mqtt.password"]}"#))
        #expect(Self.body(reset)?["values"]?["mqtt.password"] == .null)
        #expect(node.stored?.contains(Self.password) == false)
    }

    @Test func theWebAppsPasswordWinsOverTheFilesPasswordFileAndRemovingItGoesBackToTheFile() throws {
        let scratch = ConfigScratch()
        let file = scratch.write("password", "from-the-file\n")
        let node = Node("mqtt:\n  username: clock\n  password_file: \(file)\n")
        #expect(node.api().change(Self.change(#"{"mqtt.password": "\#(Self.password)"}"#)).status == 200)
        var loaded = try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed").loaded.configuration
        #expect(loaded.mqtt.password?.value == Self.password)
        let removed = node.api().change(Self.change(#"{"mqtt.password": null}"#))
        #expect(Self.body(removed)?["values"]?["mqtt.password"] == .null)
        loaded = try NodeConfiguration.loadNow(path: node.path, environment: [:], hostName: "bed").loaded.configuration
        #expect(loaded.mqtt.password?.value == "from-the-file")
        #expect(loaded.mqtt.passwordFile == file)
    }

    @Test func aPasswordWithoutAUserNameIsRefusedNamingTheKeyAndChangesNothing() {
        let node = Node()
        let refused = node.api().change(Self.change(#"{"mqtt.password": "\#(Self.password)"}"#))
        #expect(refused.status == 400)
        #expect(Self.body(refused)?["error"]?["field"] == "mqtt.password")
        #expect(Self.body(refused)?["error"]?["message"]?.stringValue?.contains("needs mqtt.username") == true, "\(Self.text(refused))")
        #expect(!Self.text(refused).contains(Self.password))
        #expect(node.stored == nil)
        let named = Node("mqtt:\n  username: clock\n")
        let empty = named.api().change(Self.change(#"{"mqtt.password": ""}"#))
        #expect(Self.body(empty)?["error"]?["message"]?.stringValue?.contains("must not be empty") == true, "\(Self.text(empty))")
    }

    @Test func theEnvironmentLocksItAndShowsItOnlyAsSet() {
        let node = Node("mqtt:\n  username: clock\n")
        let environment = ["NOISECLOCK_MQTT_PASSWORD": Self.password]
        let shown = node.api(environment).current()
        #expect(Self.body(shown)?["values"]?["mqtt.password"] == "set")
        #expect(Self.body(shown)?["sources"]?["mqtt.password"] == "environment")
        #expect(!Self.text(shown).contains(Self.password))
        let locked = node.api(environment).change(Self.change(#"{"mqtt.password": "other"}"#))
        #expect(Self.body(locked)?["error"]?["message"]?.stringValue?.contains("set by NOISECLOCK_MQTT_PASSWORD,") == true)
        // A password file from the environment wins over one set here: refused rather than kept unused.
        let byFile = node.api(["NOISECLOCK_MQTT_PASSWORD_FILE": "/nowhere"]).change(Self.change(#"{"mqtt.password": "other"}"#))
        let byFileSays = Self.body(byFile)?["error"]?["message"]?.stringValue ?? ""
        #expect(byFileSays.contains("set by NOISECLOCK_MQTT_PASSWORD_FILE"), "\(Self.text(byFile))")
        #expect(node.stored == nil)
    }

    @Test func inTheYAMLFileItIsRefusedNamingTheKey() async throws {
        let error = try #require(await configurationError("mqtt:\n  username: clock\n  password: \(Self.password)\n"))
        #expect(error.key == "mqtt.password")
        #expect(error.exitCode == 2)
        #expect(error.message.contains("mqtt.password_file"), "\(error)")
        #expect(!error.description.contains(Self.password))
        // Also under a password from the environment, which would win over it.
        let under = try #require(await configurationError(
            "mqtt:\n  username: clock\n  password: \(Self.password)\n", environment: ["NOISECLOCK_MQTT_PASSWORD": "other"]))
        #expect(under.key == "mqtt.password" && !under.message.contains("(from NOISECLOCK"), "\(under)")
    }

    @Test func bothFromTheEnvironmentAreRefusedNamingTheKey() async throws {
        let scratch = ConfigScratch()
        let file = scratch.write("password", "from-the-file\n")
        let environment = ["NOISECLOCK_MQTT_PASSWORD": Self.password, "NOISECLOCK_MQTT_PASSWORD_FILE": file]
        let error = try #require(await configurationError("mqtt:\n  username: clock\n", environment: environment, scratch: scratch))
        #expect(error.key == "mqtt.password")
        #expect(error.message.contains("not both"), "\(error)")
        #expect(!error.description.contains(Self.password))
        // One from the environment, one from the file: the environment's wins.
        let path = scratch.config("mqtt:\n  username: clock\n  password_file: \(file)\n")
        let loaded = try await NodeConfiguration.load(path: path, environment: ["NOISECLOCK_MQTT_PASSWORD": Self.password], hostName: "x")
        #expect(loaded.configuration.mqtt.password?.value == Self.password)
    }

    @Test func aBackupHoldsThePasswordOnlyWithItsSecretsAndARestoreTakesIt() throws {
        let node = Node("mqtt:\n  username: clock\n")
        #expect(node.api().change(Self.change(#"{"mqtt.password": "\#(Self.password)", "speech.rate": 180}"#)).status == 200)
        let now = Instant(seconds: 1_800_000_000)
        let plain = try StateBackup.backup(directory: node.state, nodeID: "bed", now: now)
        #expect(plain["settings"]?["speech.rate"] == 180)
        #expect(plain["settings"]?["mqtt.password"] == nil)
        #expect(!plain.serialized.contains(Self.password))
        let whole = try StateBackup.backup(directory: node.state, nodeID: "bed", now: now, secrets: true)
        #expect(whole["settings"]?["mqtt.password"] == .string(Self.password))
        // `GET /api/backup` and `?secrets=1`.
        let source = BackupSource(stateDirectory: node.state, nodeID: "bed", now: { now })
        #expect(!Self.text(source.response(secrets: false)).contains(Self.password))
        #expect(Self.text(source.response(secrets: true)).contains(Self.password))
        // The restore takes it, through the same loader.
        guard case .success(let contents) = Backup.read(whole.bytes) else {
            Issue.record("the backup with its secrets was refused")
            return
        }
        #expect(contents.settings["mqtt.password"] == .string(Self.password))
        let fresh = Node("mqtt:\n  username: clock\n")
        #expect(WebSettings.restoreProblem(contents.settings, configPath: fresh.path, environment: [:]) == nil)
        let unnamed = Node()
        let refused = WebSettings.restoreProblem(contents.settings, configPath: unnamed.path, environment: [:])
        #expect(refused?.message.contains("settings.mqtt.password") == true, "\(String(describing: refused))")
        #expect(refused?.message.contains(Self.password) == false)
    }

    @Test func theTerminalBackupHoldsThePasswordOnlyWithSecrets() throws {
        let node = try NodeProcess(brokerPort: 1883)
        try FileManager.default.createDirectory(at: node.stateDirectory, withIntermediateDirectories: true)
        let stored = #"{"version": 1, "values": {"mqtt.password": "\#(Self.password)", "speech.rate": 180}}"#
        try stored.write(to: node.stateDirectory.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        let named = ["NOISECLOCK_MQTT_USERNAME": "clock"]
        let (plainStatus, plain) = try BackupRestoreNodeTests.cli(["backup"], node, environment: named)
        #expect(plainStatus == 0, "\(plain)")
        #expect(plain.contains("\"speech.rate\":180") && !plain.contains(Self.password), "\(plain)")
        let (wholeStatus, whole) = try BackupRestoreNodeTests.cli(["backup", "--secrets"], node, environment: named)
        #expect(wholeStatus == 0, "\(whole)")
        #expect(whole.contains(Self.password), "\(whole)")
    }
}
