import Foundation
import Testing

@testable import NoiseClockCore

/// Every state file format an earlier release wrote (Tests/Fixtures/state-history, written by those
/// releases' own encoders: see its README) is loaded by today's core with nothing lost: each
/// field of the old file, at every depth, is in the document today's node would write back,
/// with the same value (today may add fields with their defaults).
@Suite struct StateHistoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/state-history")

    /// `v1.0-bd30ecc`, `v1.1-a4d7c3a`, ...
    static let releases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
        .filter { $0.hasPrefix("v") }.sorted()

    static func documents(_ release: String) throws -> [String: JSONValue] {
        var documents: [String: JSONValue] = [:]
        for name in NodeCore.stateFileNames {
            let url = root.appendingPathComponent(release).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            documents[name] = try JSONParser(maxDepth: 64).parse(Array(data))
        }
        return documents
    }

    /// The catalog the fixtures were made with (generator/HistoryDriver.swift.txt): a sound the
    /// node no longer offers is replaced at start (brown for noise), which is not what this tests.
    static let catalog: SoundCatalog = {
        let entry = { (id: String, category: String) in SoundCatalog.Entry(id: id, name: id, category: category) }
        return SoundCatalog(
            noise: [entry("brown", "noise"), entry("pink", "noise"), entry("rain", "nature"), entry("fan", "noise")],
            alarm: [entry("chime", "alarm"), entry("beep", "alarm"), entry("birds", "alarm")])
    }()

    static func core(_ documents: [String: JSONValue]) -> NodeCore {
        NodeCore(settings: NodeSettings(nodeID: "bedroom", locale: .en, zone: .utc), catalog: catalog,
                 documents: documents, now: Instant(seconds: 1_795_000_100))
    }

    /// The fields of `old` missing from `new` or different there, as paths (`alarms.json.alarms[1].date`).
    static func lost(_ old: JSONValue, in new: JSONValue?, at path: String) -> [String] {
        switch old {
        case .object(let object):
            guard let newObject = new?.objectValue else { return ["\(path): \(new.map(\.serialized) ?? "missing")"] }
            return object.pairs.flatMap { lost($0.value, in: newObject[$0.key], at: "\(path).\($0.key)") }
        case .array(let items):
            guard let newItems = new?.arrayValue, newItems.count == items.count else {
                return ["\(path): \(items.count) entries, now \(new?.arrayValue?.count ?? -1)"]
            }
            return zip(items, newItems).enumerated().flatMap { lost($1.0, in: $1.1, at: "\(path)[\($0)]") }
        default:
            return old == new ? [] : ["\(path): \(old.serialized) became \(new.map(\.serialized) ?? "missing")"]
        }
    }

    @Test func theFixturesCoverEveryRelease() {
        #expect(Self.releases.count >= 3, "\(Self.root.path)")
        // From v1.1 on, every state file the node has, but those added since the last release
        // (whose fixture is written when it ships; then its entry here goes).
        let sinceLastRelease: Set<String> = [NodeCore.StateFile.stations]
        let latest = try? Self.documents(Self.releases.last ?? "")
        #expect(Set(latest?.keys.map { $0 } ?? []) == Set(NodeCore.stateFileNames).subtracting(sinceLastRelease))
    }

    @Test(arguments: releases) func everyFieldOfAnEarlierReleaseIsKept(release: String) throws {
        let documents = try Self.documents(release)
        #expect(documents.count >= 3)
        let today = Self.core(documents).persistentState()
        for (file, old) in documents.sorted(by: { $0.key < $1.key }) {
            #expect(NodeCore.restoreProblem(file: file, document: old) == nil, "\(release)/\(file)")
            #expect(NodeCore.newerVersion(file: file, document: old) == nil)
            let lost = Self.lost(old, in: today[file], at: file)
            #expect(lost.isEmpty, "\(release): \(lost.joined(separator: "; "))")
        }
    }

    /// The same, read the way a person would check it: what each release's user had set up.
    @Test(arguments: releases) func theAlarmsStyleAndNoiseOfEachRelease(release: String) throws {
        let core = Self.core(try Self.documents(release))
        #expect(core.alarms.book.alarms.map(\.label).sorted() == ["Airport", "Work", "주말"])
        let trip = try #require(core.alarms.book.alarms.first { $0.id == "trip" })
        #expect(trip.date?.description == "2026-12-02")
        #expect(trip.time.description == "05:10")
        let ring = try #require(core.alarms.ring)
        #expect(ring.phase == .snoozed && ring.alarm.id == "trip" && ring.snoozeCount == 1)
        #expect(ring.snoozeUntil == Instant(milliseconds: 1_795_000_630_000))
        #expect(core.style.style.digitColor.hex == "#FFB000" && core.style.style.fontFamily == .monaco)
        #expect(core.noise.state.playing && core.noise.state.volume == (release.hasPrefix("v1.0") ? 35 : 30))
        guard !release.hasPrefix("v1.0") else { return }
        #expect(core.routines.routines.map(\.id).contains("bedtime"))
        #expect(core.routines.active?.routine.id == "bedtime")
        #expect(core.timers.timers.map(\.label) == ["Nap", "Pasta"])
        #expect(core.timers.presets.map(\.id) == ["nap", "tea"])
        #expect(core.mixes.mixes.map(\.id) == ["rainy_brown"])
        #expect(core.alarms.pausedUntil?.description == "2026-11-22")
    }
}
