import Foundation
import NoiseClockCore
import NoiseClockPlatform
import Testing
@testable import NoiseClockNode

/// `restore.journal` read back: a journal completes a killed restore, and only ever writes the
/// state files a restore writes (a journal is a file on disk, so it is input too).
@Suite struct RestoreJournalTests {
    @Test func aJournalIsCompletedOnceAndRemoved() throws {
        let scratch = ConfigScratch()
        let state = scratch.directory + "/state"
        scratch.write("state/alarms.json", #"{"version": 2, "alarms": []}"#)
        scratch.write("state/restore.journal", #"{"format": "noiseclock-restore-journal", "version": 1, "files": {"#
            + #""alarms.json": {"version": 2, "alarms": [{"id": "a", "time": "06:00"}]}, "settings.json": {"version": 1, "values": {}}}}"#)
        #expect(RestoreJournal.pending(directory: state))
        let written = try RestoreJournal.complete(directory: state, now: Instant(seconds: 0))
        #expect(written == ["alarms.json", "settings.json"])
        let alarms = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: state + "/alarms.json"))))
        #expect(alarms["alarms"]?.arrayValue?.count == 1)
        #expect(!RestoreJournal.pending(directory: state))
        #expect(try RestoreJournal.complete(directory: state, now: Instant(seconds: 0)).isEmpty)
    }

    @Test(arguments: [
        #"{"format": "noiseclock-restore-journal", "version": 1, "files": {"../escaped.json": {}}}"#,
        #"{"format": "noiseclock-restore-journal", "version": 1, "files": {"node.lock": {}}}"#,
        #"{"format": "noiseclock-restore-journal", "version": 2, "files": {}}"#,
        #"{"format": "noiseclock-restore-jour"#,
    ])
    func aJournalThatIsNotOneIsMovedAsideAndWritesNothing(_ text: String) throws {
        let scratch = ConfigScratch()
        let state = scratch.directory + "/state"
        scratch.write("state/alarms.json", #"{"version": 2, "alarms": []}"#)
        scratch.write("state/restore.journal", text)
        #expect(throws: PlatformError.self) { try RestoreJournal.complete(directory: state, now: Instant(seconds: 0)) }
        #expect(!RestoreJournal.pending(directory: state))
        let names = try FileManager.default.contentsOfDirectory(atPath: state).sorted()
        #expect(names.contains { $0.hasPrefix("restore.journal.corrupt-") }, "\(names)")
        #expect(!FileManager.default.fileExists(atPath: scratch.directory + "/escaped.json"))
        #expect(try String(contentsOfFile: state + "/alarms.json", encoding: .utf8) == #"{"version": 2, "alarms": []}"#)
    }
}
