import Testing
@testable import NoiseClockCore

/// Which parsed state files the node must set aside before overwriting them: anything it cannot
/// restore in full, so no alarm is lost without a copy on disk.
@Suite struct AlarmRestoreProblemTests {
    @Test(arguments: [
        #"[1, 2, 3]"#,
        #""alarms""#,
        #"{"alarms": []}"#,
        #"{"version": "1", "alarms": []}"#,
        #"{"version": 2, "alarms": [{"id": "later", "time": "07:00"}]}"#,
        #"{"version": 1, "alarms": {"id": "a", "time": "07:00"}}"#,
        #"{"version": 1}"#,
        #"{"version": 1, "alarms": [{"id": "a", "time": "07:00"}, {"id": "b", "time": "31:00"}]}"#,
        #"{"version": 1, "alarms": [{"id": "a", "time": "07:00"}, {"id": "a", "time": "08:00"}]}"#,
        #"{"version": 1, "alarms": [], "ring": {"phase": "ringing"}}"#,
    ])
    func unusableDocumentsAreNamed(_ text: String) throws {
        let document = try JSONParser().parse(Array(text.utf8))
        #expect(AlarmsFeature.restoreProblem(document) != nil)
        #expect(NodeCore.restoreProblem(file: NodeCore.StateFile.alarms, document: document) != nil)
    }

    @Test(arguments: [
        #"{"version": 1, "alarms": []}"#,
        #"{"version": 1, "id_counter": 2, "alarms": [{"id": "a", "time": "07:00", "pending": null}], "ring": null}"#,
    ])
    func usableDocumentsPass(_ text: String) throws {
        #expect(AlarmsFeature.restoreProblem(try JSONParser().parse(Array(text.utf8))) == nil)
    }

    @Test func whatTheFeatureWritesIsAlwaysUsable() throws {
        var h = AlarmHarness(now: "2026-11-21T07:20:00+01:00")
        _ = h.add(#"{"time": "07:30", "repeat": "daily"}"#)
        h.advance(to: "2026-11-21T07:30:00+01:00") // fired: a ring is stored too
        #expect(h.feature.ring != nil)
        let written = try #require(h.feature.persistent)
        #expect(AlarmsFeature.restoreProblem(written) == nil)
        #expect(AlarmsFeature.restoreProblem(try #require(AlarmsFeature().persistent)) == nil)
    }
}
