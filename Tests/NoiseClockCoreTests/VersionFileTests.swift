import Foundation
import Testing

@testable import NoiseClockCore

/// The binary's version is VERSION's (scripts/version.sh writes NoiseClockVersion.swift from it).
@Suite struct VersionFileTests {
    @Test func theBinarysVersionIsTheVersionFiles() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("VERSION")
        let text = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == NoiseClockVersion.current, "run scripts/version.sh")
        let parts = text.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "MAJOR.MINOR.PATCH")
    }

    @Test func theInfoPayloadNamesWhatRunsWhere() {
        let info = NodeInfo(startedAt: Instant(seconds: 1_795_000_000), configFile: "/etc/noiseclock/noiseclock.yaml",
                            stateDirectory: "/var/lib/noiseclock", architecture: "aarch64")
        #expect(info.json(zone: ZoneRules(identifier: "X", fixedOffset: 3600)).serialized
            == #"{"version":"\#(NoiseClockVersion.current)","started_at":"2026-11-18T12:06:40+01:00","#
            + #""config_file":"/etc/noiseclock/noiseclock.yaml","state_dir":"/var/lib/noiseclock","arch":"aarch64","safe_mode":null}"#)
        // v1.4: a safe-mode start says since when and why.
        var safe = info
        safe.safeMode = SafeModeStatus(since: Instant(seconds: 1_795_000_000), crashedStarts: 2, lastError: "SIGSEGV (signal 11)")
        #expect(safe.json(zone: .utc)["safe_mode"]?.serialized
            == #"{"since":"2026-11-18T11:06:40+00:00","crashed_starts":2,"last_error":"SIGSEGV (signal 11)"}"#)
    }

    @Test func infoIsPublishedRetainedRightAfterOnline() {
        let core = NodeCore(settings: NodeSettings(nodeID: "bed", locale: .en, zone: .utc), now: Instant(seconds: 1_795_000_000))
        let info = NodeInfo(startedAt: Instant(seconds: 1_795_000_000), configFile: "/c.yaml", stateDirectory: "/s", architecture: "x86_64")
        var machine = NodeMachine(core: core, topics: MachineRig.topics, discovery: DiscoverySettings(enabled: false, prefix: "homeassistant"),
                                  persisted: core.persistentState(), seed: 1, info: info)
        let plan = machine.plan(.connected, now: Instant(seconds: 1_795_000_001))
        let effects = machine.finish(plan, failure: nil)
        let topics = effects.publications.map(\.topic)
        #expect(topics.prefix(2) == ["noiseclock/bed/availability", "noiseclock/bed/info"])
        let published = effects.published("noiseclock/bed/info")
        #expect(published.count == 1 && published.allSatisfy { $0.retain && $0.qos == 1 })
    }
}
