import Foundation
import NoiseClockCore
import Testing
@testable import NoiseClockPlatform

/// The node's clock and the wake timer under a test-controlled offset (NOISECLOCK_TEST_CLOCK_FILE).
@Suite struct NodeClockTests {
    /// A fresh folder holding the offset file (not yet written), removed when the test ends.
    final class ClockFolder {
        let root: URL
        var file: String { root.appendingPathComponent("offset-ms").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-clock-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Temporary file, then rename: the way the tests write it.
        func write(_ text: String) throws {
            let temporary = root.appendingPathComponent(".offset-ms.tmp")
            try Data(text.utf8).write(to: temporary)
            #expect(rename(temporary.path, file) == 0)
        }
    }

    @Test func theOffsetComesFromTheFileAndAMissingOrEmptyOneIsZero() throws {
        let folder = try ClockFolder()
        #expect(NodeClock(environment: [:]).offsetFile == nil)
        #expect(NodeClock(environment: [NodeClock.environmentKey: ""]).offsetFile == nil)
        let clock = NodeClock(environment: [NodeClock.environmentKey: folder.file])
        #expect(clock.offsetMilliseconds == 0)
        try folder.write("86400000\n")
        #expect(clock.offsetMilliseconds == 0, "taken only on reload")
        clock.reload()
        #expect(clock.offsetMilliseconds == 86_400_000)
        let drift = clock.now().milliseconds - WallClock.now().milliseconds - 86_400_000
        #expect(abs(drift) < 1000)
        try folder.write("-1500")
        clock.reload()
        #expect(clock.offsetMilliseconds == -1500)
        try folder.write("")
        clock.reload()
        #expect(clock.offsetMilliseconds == 0)
    }

    @Test func aNewOffsetIsAClockChangeAndTheTimerFiresOnTheNodesTime() async throws {
        let folder = try ClockFolder()
        let clock = NodeClock(offsetFile: folder.file)
        let (stream, continuation) = AsyncStream.makeStream(of: WakeTimer.Event.self)
        let timer = try WakeTimer(clock: clock) { continuation.yield($0) }
        timer.start()
        defer { timer.stop() }
        var events = stream.makeAsyncIterator()
        // A deadline a day ahead on the node's clock: nothing happens until the offset moves there.
        let deadline = clock.now().adding(seconds: 86_400)
        timer.arm(at: deadline)
        try folder.write("\(86_400_000 - 300)")
        #expect(await events.next() == .clockChanged)
        #expect(clock.offsetMilliseconds == 86_400_000 - 300)
        // Re-armed at the new offset: the wake comes about 0.3 s later, not a day.
        let started = ContinuousClock.now
        #expect(await events.next() == .wake)
        let waited = ContinuousClock.now - started
        // What this tells apart is 0.3 s from a day: a bound far above any scheduling delay on a
        // loaded machine (7.8 s was seen with every suite running at once) cannot fail by chance.
        #expect(waited < .seconds(120), "woke after \(waited)")
        #expect(clock.now() >= deadline)
        // Other files in the folder are not clock changes: the next event is the next wake.
        try Data("x".utf8).write(to: folder.root.appendingPathComponent("other"))
        timer.arm(at: clock.now().adding(milliseconds: 200))
        #expect(await events.next() == .wake)
    }
}
