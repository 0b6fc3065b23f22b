import Glibc
import NoiseClockPlatform
import Testing

/// inotify on a real directory: a file created, replaced (renamed over) and removed is each seen.
@Suite struct DirectoryWatcherTests {
    static func makeDirectory() -> String {
        var template = Array("/tmp/noiseclock-watch-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    /// A fresh watcher per change, so each change alone must produce the report.
    static func seen(in directory: String, _ change: () -> Void) async throws -> Bool {
        let watcher = try DirectoryWatcher(directory: directory)
        try watcher.start()
        var changes = watcher.changes.makeAsyncIterator()
        change()
        let reported = await changes.next() != nil
        watcher.stop()
        // `stop` finishes the stream: a consumer's loop ends.
        while await changes.next() != nil {}
        return reported
    }

    @Test func createReplaceAndRemoveAreEachSeen() async throws {
        let directory = Self.makeDirectory()
        #expect(try await Self.seen(in: directory) { Self.write("a", to: directory + "/rain.wav") })
        Self.write("b", to: directory + "/.rain.tmp")
        #expect(try await Self.seen(in: directory) { rename(directory + "/.rain.tmp", directory + "/rain.wav") })
        #expect(try await Self.seen(in: directory) { Self.write("c", to: directory + "/rain.wav") })
        #expect(try await Self.seen(in: directory) { unlink(directory + "/rain.wav") })
    }

    @Test func aMissingDirectoryIsAClearError() {
        #expect(throws: DirectoryWatcher.Failure.self) { try DirectoryWatcher(directory: "/nonexistent/noiseclock-sounds") }
    }
}
