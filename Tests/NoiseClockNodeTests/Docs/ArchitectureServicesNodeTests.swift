import Foundation
import Testing

/// docs/architecture.md's services list against the services a real node runs, found by their
/// types (`type(of:)` of each `Service` in its `ServiceGroup`, logged at start) rather than by
/// reading the source: a node with every optional part on (the web app, speech, the systemd
/// watchdog, a sound library) runs each documented service, and no other.
@Suite struct ArchitectureServicesNodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The first cell's backquoted names of the doc's `services` list.
    static func documentedServices() throws -> Set<String> {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let marker = doc.range(of: "<!-- list: services"),
              let end = doc.range(of: "<!-- end list -->", range: marker.upperBound..<doc.endIndex) else {
            throw TestFailure("docs/architecture.md has no services list")
        }
        var names: Set<String> = []
        for line in doc[marker.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst().prefix { $0 != "|" }
            let pieces = cell.split(separator: "`", omittingEmptySubsequences: false)
            for index in pieces.indices where index % 2 == 1 { names.insert(String(pieces[index])) }
        }
        return names
    }

    @Test func theServicesANodeRunsAreTheDocumentedOnes() async throws {
        let watchdog = try NotifySocketListener(abstract: true)
        let environment = NodeProcess.web(port: try freeLoopbackPort()).merging([
            "NOTIFY_SOCKET": watchdog.address, "WATCHDOG_USEC": "30000000", "NOISECLOCK_SPEECH_ENABLED": "true",
        ]) { $1 }
        let online = try await OnlineNode.start(environment: environment)
        defer { online.shutdown() }
        // Logged before the services start, so before `online`.
        let line = try #require(online.node.log.split(separator: "\n").first { $0.contains(" services: ") }, "\(online.node.log)")
        let running = Set(line[line.range(of: " services: ")!.upperBound...].split(separator: " ").map(String.init))
        let documented = try Self.documentedServices()
        #expect(running.count >= 15, "\(running)")
        let undocumented = running.subtracting(documented), notRunning = documented.subtracting(running)
        #expect(undocumented.isEmpty, "running but not in docs/architecture.md's services list: \(undocumented)")
        #expect(notRunning.isEmpty, "documented but not run by a node with every part on: \(notRunning)")
    }
}
