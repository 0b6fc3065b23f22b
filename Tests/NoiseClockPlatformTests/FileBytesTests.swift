import NoiseClockPlatform
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The node's one file reader (issue 31, 5): a FIFO or device where a file is expected is an
/// error at once, never a thread held in `open` waiting for a writer.
@Suite struct FileBytesTests {
    @Test func aFIFOIsRefusedAtOnce() async throws {
        var template = Array("/tmp/noiseclock-filebytes-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let fifo = directory + "/state.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = Outcome()
        // A thread of its own: held in `open`, it must not take one of the test pool's few threads.
        let reader = Thread {
            let words: String
            switch FileBytes.read(fifo) {
            case .success(let bytes): words = "read \(bytes.count) bytes"
            case .failure(let failure): words = failure.description
            }
            outcome.words.withLock { $0 = words }
        }
        reader.start()
        let start = ContinuousClock.now
        while outcome.words.withLock({ $0 }) == nil, ContinuousClock.now - start < .seconds(2) { try await Task.sleep(for: .milliseconds(10)) }
        let held = outcome.words.withLock { $0 } == nil
        while outcome.words.withLock({ $0 }) == nil {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!held, "reading a FIFO held the reader for 2 s")
        #expect(outcome.words.withLock { $0 } == fifo + ": not a regular file")
        #expect(FileBytes.contents(of: "/dev/zero") == nil, "a device is no file either")
        unlink(fifo)
        rmdir(directory)
    }
}

/// What the opener's task found, read by the test's loop.
private final class Outcome: Sendable {
    let words = Mutex<String?>(nil)
}
