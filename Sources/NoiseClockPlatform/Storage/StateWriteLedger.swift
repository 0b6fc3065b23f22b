import Glibc

/// The node's own account of what it writes to its SD card, for the tests' write budget
/// (docs/reliability.md, "A week of nights"): with `NOISECLOCK_TEST_WRITE_LEDGER` set to a file,
/// every state file written appends `NAME BYTES` to it. The kernel's `write_bytes` is 0 when the
/// state directory is on tmpfs and `wchar` mixes in the log and MQTT, so neither tells a test
/// how much the state files cost; this does, on any file system. Unset (installed), it costs one
/// `getenv` per process.
public enum StateWriteLedger {
    public static let environmentKey = "NOISECLOCK_TEST_WRITE_LEDGER"

    private static let path: String? = getenv(environmentKey).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

    /// Appends one line for a state file of `bytes` bytes just written and synced.
    static func record(_ name: String, bytes: Int) {
        guard let path else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        // One write(2) per line: O_APPEND keeps lines whole between the node's threads.
        let line = Array("\(name) \(bytes)\n".utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
