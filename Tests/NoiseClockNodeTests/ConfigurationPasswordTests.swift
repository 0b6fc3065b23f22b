import Testing
@testable import NoiseClockNode

@Suite("Configuration password")
struct ConfigurationPasswordTests {
    static let password = "s3cr3t-Pa55"

    func load(passwordFileContents: String, mode: Int) async throws -> (LoadedConfiguration, ConfigScratch) {
        let scratch = ConfigScratch()
        let file = scratch.write("password", passwordFileContents, mode: mode)
        let path = scratch.config("mqtt:\n  username: clock\n  password_file: \(file)")
        return (try await NodeConfiguration.load(path: path, environment: [:], hostName: "x"), scratch)
    }

    @Test("the password is the file's first line, trimmed", arguments: [
        "\(password)\n", "  \(password)  \nsecond line\n", "\(password)\r\nrest", password,
    ])
    func readsFirstLine(contents: String) async throws {
        let (loaded, _) = try await load(passwordFileContents: contents, mode: 0o600)
        #expect(loaded.configuration.mqtt.password?.value == Self.password)
        #expect(loaded.configuration.mqtt.username == "clock")
        #expect(loaded.warnings.isEmpty)
    }

    @Test("no textual form of the configuration shows the password")
    func neverShown() async throws {
        let (loaded, _) = try await load(passwordFileContents: Self.password, mode: 0o600)
        let configuration = loaded.configuration
        var dumped = ""
        dump(configuration, to: &dumped)
        let texts = [
            String(describing: configuration), String(reflecting: configuration), dumped,
            "\(configuration.mqtt)", String(reflecting: configuration.mqtt.password),
        ]
        for text in texts {
            #expect(!text.contains(Self.password), "\(text)")
        }
        #expect(String(reflecting: configuration).contains("<redacted>"))
    }

    @Test("a password file readable by group or others warns", arguments: [0o644, 0o640, 0o604])
    func looseModeWarns(mode: Int) async throws {
        let (loaded, _) = try await load(passwordFileContents: Self.password, mode: mode)
        #expect(loaded.warnings.map(\.key) == ["mqtt.password_file"])
        #expect(loaded.warnings.first?.message.contains("chmod 600") == true)
        #expect(loaded.warnings.allSatisfy { !$0.description.contains(Self.password) })
    }

    @Test("an empty password file is an error")
    func emptyFile() async throws {
        let scratch = ConfigScratch()
        let file = scratch.write("password", "\n", mode: 0o600)
        let error = try #require(await configurationError("mqtt:\n  username: u\n  password_file: \(file)", scratch: scratch))
        #expect(error.key == "mqtt.password_file")
    }

    @Test("a password needs a user name")
    func passwordWithoutUsername() async throws {
        let scratch = ConfigScratch()
        let file = scratch.write("password", Self.password, mode: 0o600)
        let error = try #require(await configurationError("mqtt:\n  password_file: \(file)", scratch: scratch))
        #expect(error.key == "mqtt.password_file")
        #expect(!error.description.contains(Self.password))
    }
}
