import Foundation
import Glibc
import NoiseClockCore
import NoiseClockThreads
import Testing
@testable import NoiseClockPlatform
import Synchronization

/// Real `struct input_event` records through a FIFO into the reader's thread: the gestures,
/// auto-repeat, and a device that goes away and comes back. Every wait is for a signal; where a
/// test needs two presses to be apart, it waits at least the double window (more only helps).
@Suite struct InputDeviceReaderTests {
    static let enter = InputKey("KEY_ENTER")!
    /// A press-only key: acts on key-down at once, so it marks "everything before has arrived".
    static let marker = InputKey("KEY_POWER")!
    static let timing = ButtonTiming(holdSeconds: 0.5, doubleSeconds: 0.2)

    /// What the reader reported, in order, with a wait for the next one.
    final class Recorder: Sendable {
        enum Entry: Sendable, Equatable {
            case status(InputDeviceReader.Status)
            case event(ButtonPanel.Event)
        }

        private let entries = Mutex<[Entry]>([])
        private let signal = WakeSignal()

        func add(_ entry: Entry) {
            entries.withLock { $0.append(entry) }
            signal.signal()
        }

        var all: [Entry] { entries.withLock { $0 } }
        var events: [ButtonPanel.Event] { all.compactMap { if case .event(let event) = $0 { event } else { nil } } }
        var statuses: [InputDeviceReader.Status] { all.compactMap { if case .status(let status) = $0 { status } else { nil } } }

        /// Waits (up to 10 s, a failure) until `done` holds for what was recorded.
        func wait(_ what: String, until done: ([Entry]) -> Bool) throws {
            let limit = InputDeviceReader.now() + 10
            while !done(all) {
                guard InputDeviceReader.now() < limit else { throw TestFailure("timed out waiting for \(what); got \(all)") }
                signal.wait(seconds: 0.5)
            }
        }

        func waitForEvents(_ count: Int) throws {
            try wait("\(count) events") { entries in entries.filter { if case .event = $0 { true } else { false } }.count >= count }
        }

        func waitForStatuses(_ count: Int) throws {
            try wait("\(count) statuses") { entries in entries.filter { if case .status = $0 { true } else { false } }.count >= count }
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A FIFO in a fresh directory, removed with it.
    final class Fifo {
        let directory: String
        let path: String

        init(create: Bool = true) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("noiseclock-input-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/event0"
            if create { try make() }
        }

        func make() throws {
            guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo: \(String(cString: strerror(errno)))") }
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The writing end: a device "plugged in" while it is open.
    final class Writer {
        let fd: Int32

        /// Opens for writing; the reader has it open already (its status said so), so this does not block.
        init(_ fifo: Fifo) throws {
            fd = open(fifo.path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw TestFailure("open: \(String(cString: strerror(errno)))") }
        }

        /// All records in one write (atomic: under PIPE_BUF), so the reader sees them at one instant.
        func send(_ events: [InputEvent]) throws {
            let bytes = events.flatMap(\.record)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw TestFailure("write: \(written)") }
        }

        func unplug() { close(fd) }
    }

    func reader(_ path: String, _ recorder: Recorder, timing: ButtonTiming = timing) -> InputDeviceReader {
        let panel = ButtonPanel(bindings: [
            .init(button: "top", key: Self.enter, detector: GestureDetector(timing: timing)),
            .init(button: "mark", key: Self.marker, detector: GestureDetector(timing: Self.timing, detectsDouble: false, detectsHold: false)),
        ])
        return InputDeviceReader(
            path: path, panel: panel, retrySeconds: 0.05,
            onStatus: { recorder.add(.status($0)) }, onEvent: { recorder.add(.event($0)) })
    }

    static let down = InputEvent.key(enter, 1)
    static let up = InputEvent.key(enter, 0)
    static let syn = InputEvent(type: 0, code: 0, value: 0)
    static let mark = [InputEvent.key(marker, 1), syn, .key(marker, 0), syn]

    /// Starts a reader on a FIFO and opens the writing end once the reader has the FIFO open.
    func connected(_ fifo: Fifo, _ recorder: Recorder, timing: ButtonTiming = timing) throws -> (InputDeviceReader, Writer) {
        let reader = reader(fifo.path, recorder, timing: timing)
        try reader.start()
        try recorder.waitForStatuses(1)
        #expect(recorder.statuses == [.connected])
        return (reader, try Writer(fifo))
    }

    @Test func pressDoubleAndHold() throws {
        let fifo = try Fifo()
        let recorder = Recorder()
        let (reader, writer) = try connected(fifo, recorder)
        defer { reader.stop() }

        try writer.send([Self.down, Self.syn, Self.up, Self.syn])
        try recorder.waitForEvents(1)
        try writer.send([Self.down, Self.syn, Self.up, Self.syn, Self.down, Self.syn, Self.up, Self.syn])
        try recorder.waitForEvents(2)
        try writer.send([Self.down, Self.syn])
        try recorder.waitForEvents(3)  // the hold comes while the key is still down
        try writer.send([Self.up, Self.syn] + Self.mark)
        try recorder.waitForEvents(4)
        #expect(recorder.events == [
            .gesture(button: "top", .press), .gesture(button: "top", .double), .gesture(button: "top", .hold), .gesture(button: "mark", .press),
        ])
    }

    @Test func autoRepeatIsIgnored() throws {
        let fifo = try Fifo()
        let recorder = Recorder()
        let (reader, writer) = try connected(fifo, recorder)
        defer { reader.stop() }

        let repeats = Array(repeating: [InputEvent.key(Self.enter, 2), Self.syn], count: 8).flatMap { $0 }
        try writer.send([Self.down, Self.syn] + repeats + [Self.up, Self.syn])
        try recorder.waitForEvents(1)
        try writer.send(Self.mark)
        try recorder.waitForEvents(2)
        #expect(recorder.events == [.gesture(button: "top", .press), .gesture(button: "mark", .press)])
    }

    @Test func pressOnlyButtonActsOnKeyDown() throws {
        let fifo = try Fifo()
        let recorder = Recorder()
        let (reader, writer) = try connected(fifo, recorder)
        defer { reader.stop() }

        try writer.send([.key(Self.marker, 1), Self.syn])  // no release yet
        try recorder.waitForEvents(1)
        #expect(recorder.events == [.gesture(button: "mark", .press)])
    }

    @Test func unplugAndReplugAreSeenAndTheReaderGoesOn() throws {
        let fifo = try Fifo()
        let recorder = Recorder()
        // The longest hold, so the held key cannot become a hold before the unplug reaches the reader.
        let (reader, writer) = try connected(fifo, recorder, timing: ButtonTiming(holdSeconds: 5, doubleSeconds: 0.2))
        defer { reader.stop() }

        // Unplugged with the key held: that press is dropped, not turned into a hold.
        try writer.send([Self.down, Self.syn])
        writer.unplug()
        try recorder.waitForStatuses(3)
        #expect(recorder.statuses == [.connected, .missing("unplugged"), .connected])

        let again = try Writer(fifo)
        try again.send(Self.mark)
        try recorder.waitForEvents(1)
        #expect(recorder.events == [.gesture(button: "mark", .press)])
        again.unplug()
    }

    @Test func missingAtStartIsLookedForAgain() throws {
        let fifo = try Fifo(create: false)
        let recorder = Recorder()
        let reader = reader(fifo.path, recorder)
        try reader.start()
        defer { reader.stop() }
        try recorder.waitForStatuses(1)
        #expect(recorder.statuses == [.missing("No such file or directory")])

        try fifo.make()
        try recorder.waitForStatuses(2)
        #expect(recorder.statuses.last == .connected)
        let writer = try Writer(fifo)
        try writer.send(Self.mark)
        try recorder.waitForEvents(1)
        writer.unplug()
    }

    @Test func learnModeNamesEveryKey() throws {
        let fifo = try Fifo()
        let recorder = Recorder()
        let (reader, writer) = try connected(fifo, recorder)
        defer { reader.stop() }

        reader.learn(seconds: 30)
        // The learn request reaches the thread through its wake fd before any record written after it.
        try writer.send([.key(InputKey("KEY_VOLUMEUP")!, 1), Self.syn] + Self.mark)
        try recorder.waitForEvents(3)
        #expect(recorder.events == [.learned(InputKey("KEY_VOLUMEUP")!), .learned(Self.marker), .gesture(button: "mark", .press)])
    }
}
