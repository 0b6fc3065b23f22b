@testable import NoiseClockCore
import Testing

/// Readiness for an alarm on a station (v1.3, Radio): a station due within 12 h is probed at each
/// check (its address goes out with the check), one due later is not; a failed probe is
/// `at_risk` with `stream_unreachable`, whose message says the fallback tone will ring.
@Suite struct StationReadinessTests {
    typealias R = NodeMachineReadinessTests

    @Test func aStationDueWithinTwelveHoursIsProbedAndItsFailureIsAtRisk() throws {
        var rig = R.connected()  // 07:04:30 local
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz.mp3"}"#)
        // Tomorrow's 07:30 is more than 12 h away: the station is not probed.
        var effects = rig.command("alarm/add", #"{"id": "w", "time": "07:30", "date": "2026-11-22", "sound": "radio:jazz"}"#)
        #expect(R.probes(effects) == [ReadinessProbe(sound: "radio:jazz", stationURL: nil)])
        rig.step(.readiness(R.fine))
        // Today's 19:00 is within 12 h: probed.
        effects = rig.command("alarm/add", #"{"id": "v", "time": "19:00", "sound": "radio:jazz"}"#)
        #expect(R.probes(effects) == [ReadinessProbe(sound: "radio:jazz", stationURL: "http://radio.example:8000/jazz.mp3", stationID: "jazz")])
        effects = rig.step(.readiness(ReadinessReport(clockSynced: true, streamCause: "refused")))
        let event = try #require(R.events(effects).first)
        #expect(event["event"] == "at_risk" && event["id"] == "v")
        let problem = try #require(event["problems"]?.arrayValue?.first)
        #expect(problem["code"] == "stream_unreachable")
        #expect(problem["message"]?.stringValue?.contains("refused") == true)
        #expect(problem["message"]?.stringValue?.contains("fallback tone will ring") == true)
        // The station back: ready.
        effects = rig.command("alarm/check", "")
        #expect(R.events(rig.step(.readiness(R.fine))).map { $0["event"] } == ["ready"])
    }
}
