import Glibc
import NoiseClockPlatform
import Testing

/// Who holds a file open, found through /proc as `noiseclock doctor` finds who holds a busy sound
/// device: a real child process holding a real file, and never the asking process itself.
@Suite struct OpenFileHoldersTests {
    @Test func aProcessHoldingTheFileIsNamedAndTheAskerIsNot() async throws {
        var template = Array("/tmp/noiseclock-holders-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let path = directory + "/pcmC9D0p"
        let own = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        #expect(own >= 0)
        defer {
            close(own)
            unlink(path)
            rmdir(directory)
        }
        // sh opens the file on descriptor 3, then becomes `sleep`, which keeps it open until the
        // test kills it (long enough for a slow scan on a loaded machine: 112 s once under CI's load).
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", "exec 3<'\(path)'; exec sleep 600"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        var holders: [OpenFileHolders.Holder] = []
        // Until the child has become `sleep` holding the file (a scan of /proc takes long under load).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(300)
        while !holders.contains(where: { $0.pid == pid && $0.name == "sleep" }) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            holders = OpenFileHolders.holders(prefix: directory + "/pcm")
        }
        let alive = kill(pid, 0) == 0 && String(decoding: FileBytes.contents(of: "/proc/\(pid)/stat", limit: 256) ?? [], as: UTF8.self)
            .split(separator: " ").dropFirst(2).first != "Z"
        #expect(holders.contains { $0.pid == pid && $0.name == "sleep" && $0.target == path }, "\(holders); child alive: \(alive)")
        #expect(!holders.contains { $0.pid == getpid() }, "the asking process holds it too, but is not the answer")
    }

    @Test func nothingHoldsAFileNobodyOpened() {
        #expect(OpenFileHolders.holders(prefix: "/tmp/noiseclock-nobody-opens-this-").isEmpty)
        #expect(OpenFileHolders.listeners(port: 1).isEmpty)
    }
}
