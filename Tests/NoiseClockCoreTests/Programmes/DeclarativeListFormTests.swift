import Testing
@testable import NoiseClockCore

/// The declarative lists (`alarms/set`, `routines/set`, `timer/presets/set`) take their array as an
/// object too (`{"routines": [...]}`), the form that can carry a `request_id`: the same list, the
/// same refusals, and the id echoed.
@Suite struct DeclarativeListFormTests {
    @Test(arguments: [
        ("alarms/set", "alarms", #"[{"id": "a", "time": "06:00"}]"#, "alarms"),
        ("routines/set", "routines", #"[{"id": "r", "start": "22:30"}]"#, "routines"),
        ("timer/presets/set", "presets", #"[{"id": "nap", "label": "Nap", "minutes": 20, "sound": "chime"}]"#, "timer/presets"),
    ])
    func theObjectFormIsTheArrayWithARequestID(topic: String, key: String, list: String, retained: String) throws {
        var byArray = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        var byObject = ProgrammeHarness(now: "2026-11-21T14:00:00+01:00")
        let array = byArray.ok(topic, list)
        let object = byObject.ok(topic, #"{"request_id": "set-1", "\#(key)": \#(list)}"#)
        #expect(array == object)
        #expect(byArray.retained(retained) == byObject.retained(retained))
        let message = CommandMessage.parse(topic: topic, payload: Array(#"{"request_id": "set-1", "\#(key)": \#(list)}"#.utf8))
        guard case .command(let command) = message else { throw CommandError(.unknownCommand, "\(topic) not parsed") }
        #expect(byObject.core.handle(command, now: byObject.now, outbox: &byObject.outbox).requestID == "set-1")
        // Anything but a list under the key is refused as before.
        #expect(byObject.refused(topic, #"{"request_id": "set-2", "\#(key)": "none"}"#)?.code == .invalidJSON)
        #expect(byObject.refused(topic, #"{"request_id": "set-3"}"#)?.code == .invalidJSON)
    }
}
