import Foundation
import Testing
@testable import NoiseClockNode

/// docs/configuration.md's key table is the one in `ConfigurationKeys`: the same keys in the same
/// order, with the same defaults, variables and meanings. A key added to the table without its
/// row (or a row edited by hand) fails here, with the row to paste.
@Suite struct ConfigurationDocumentationTests {
    static let header = ["| key | default | environment variable | meaning |", "|---|---|---|---|"]

    static func row(_ key: any AnyConfigurationKey) -> String {
        "| `\(key.path)` | \(key.documentedDefault) | `\(key.environmentVariable)` | \(key.doc) |"
    }

    @Test func theKeyTableInTheDocsIsTheTableInTheCode() throws {
        let text = try String(contentsOfFile: packageRoot + "/docs/configuration.md", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: Self.header[0]), "docs/configuration.md has no key table")
        let documented = Array(lines[start...].prefix { $0.hasPrefix("|") })
        let expected = Self.header + ConfigurationKeys.all.map(Self.row)
        for (line, want) in zip(documented, expected) where line != want {
            Issue.record("docs/configuration.md has\n\(line)\nwhere the table in the code gives\n\(want)")
        }
        #expect(
            documented.count == expected.count,
            "docs/configuration.md's key table, as the code gives it:\n\(expected.joined(separator: "\n"))")
    }

    @Test func everyKeyIsDeclaredOnceAndEveryDefaultPassesItsOwnCheck() {
        let paths = ConfigurationKeys.all.map(\.path)
        #expect(Set(paths).count == paths.count)
        for key in ConfigurationKeys.all {
            #expect(key.defaultProblem == nil, "\(key.path)'s default: \(key.defaultProblem ?? "")")
        }
        // The defaults the initialisers use are the table's (each one read here once).
        #expect(ConfigurationDefaults.mqttPort == 1883 && ConfigurationDefaults.webPort == 8080 && ConfigurationDefaults.sampleRate == 48000)
        #expect([ConfigurationDefaults.timezone, ConfigurationDefaults.locale, ConfigurationDefaults.stateDirectory, ConfigurationDefaults.logLevel,
                 ConfigurationDefaults.mqttHost, ConfigurationDefaults.baseTopic, ConfigurationDefaults.mqttProtocol,
                     ConfigurationDefaults.discoveryPrefix,
                 ConfigurationDefaults.audioDevice, ConfigurationDefaults.batteryPath, ConfigurationDefaults.webHost, ConfigurationDefaults.webAuth]
            .allSatisfy { !$0.isEmpty })
        #expect(ConfigurationDefaults.keepaliveSeconds == 30 && ConfigurationDefaults.batteryIntervalSeconds == 60)
        #expect(ConfigurationDefaults.discovery && ConfigurationDefaults.webEnabled)
    }

    @Test func theSectionsAreThePrefixesOfTheKeys() {
        #expect(ConfigurationSchema.sections == [
            "mqtt", "mqtt.tls", "home_assistant", "audio", "battery", "web", "devices", "devices.light", "devices.shaker", "button_timing", "speech",
            "stream",
        ])
    }
}
