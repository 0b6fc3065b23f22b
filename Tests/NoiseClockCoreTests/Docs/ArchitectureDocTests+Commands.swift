import Foundation
import Testing

/// docs/architecture.md, "Features, commands and effects": there is one command
/// table, `CommandName` (the features' `CommandTopic` and the web app's `WebCommand`); the second
/// enum the machine once answered itself (`MachineCommand`: speech, `buttons/learn`,
/// `devices/test`, `safe_mode/exit`) is gone, and every feature's command enum is a case of
/// `CommandTopic`, so discovery, the subscriptions, the web router and the contract test see it.
extension ArchitectureDocTests {
    @Test func thereIsNoSecondCommandEnum() throws {
        for (place, line) in try Self.sourceLines() where line.contains("MachineCommand") {
            Issue.record("\(place): \(line.trimmingCharacters(in: .whitespaces)): a command is a feature's, in CommandTopic")
        }
        let name = try Self.read("Sources/NoiseClockCore/Command/CommandName.swift")
        let lines = name.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let cases = lines.filter { $0.hasPrefix("case ") && !$0.hasPrefix("case .") }
        #expect(cases == ["case feature(CommandTopic)", "case web(WebCommand)"])
    }

    @Test func everyFeatureCommandEnumIsACaseOfTheOneTable() throws {
        let table = try Self.read("Sources/NoiseClockCore/Command/CommandTopic.swift")
        var found = 0
        for (path, text) in try Self.swiftFiles(under: "Sources") {
            for line in text.split(separator: "\n") where line.hasPrefix("public enum ") && line.contains(": String, FeatureCommand") {
                let type = line.dropFirst("public enum ".count).prefix { $0 != ":" }
                found += 1
                #expect(table.contains("(\(type))"), "\(path): \(type) is not a case of CommandTopic")
            }
        }
        #expect(found >= 12, "only \(found) feature command enums found")
    }
}
