import NoiseClockPlatform
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `node.lock`: one holder at a time (a second node, or `noiseclock restore` beside a running
/// node, is told so), free again once the holder is gone.
@Suite struct StateDirectoryLockTests {
    @Test func aSecondHolderIsRefusedUntilTheFirstLetsGo() throws {
        var template = Array("/tmp/noiseclock-lock-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer {
            unlink(directory + "/" + StateDirectoryLock.fileName)
            rmdir(directory)
        }
        var first = try StateDirectoryLock.acquire(directory: directory)
        #expect(first != nil)
        // flock locks belong to the open file: a second open in this process is a second holder.
        #expect(try StateDirectoryLock.acquire(directory: directory, waitingUpTo: 0.1) == nil)
        first = nil
        #expect(try StateDirectoryLock.acquire(directory: directory) != nil)
    }

    @Test func aDirectoryThatCannotHoldTheLockIsAnErrorNotAHolder() {
        #expect(throws: PlatformError.self) { try StateDirectoryLock.acquire(directory: "/proc/no-such-directory") }
    }
}
