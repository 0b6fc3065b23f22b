import Glibc
import NoiseClockCore

/// Which processes hold a file or a socket open, found the way `fuser` finds them: through
/// every `/proc/PID/fd` link this user may read (`noiseclock doctor`: who holds the sound device,
/// who listens on the web port).
public enum OpenFileHolders {
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        /// The process's name (`/proc/PID/comm`).
        public var name: String
        /// What it holds open (a device path, or `socket:[inode]`).
        public var target: String
    }

    /// Processes with an open descriptor whose target starts with `prefix` (`/dev/snd/pcm`).
    public static func holders(prefix: String) -> [Holder] {
        holders { $0.hasPrefix(prefix) }
    }

    /// Processes holding the socket that listens on TCP `port` (from /proc/net/tcp and tcp6).
    public static func listeners(port: Int) -> [Holder] {
        let inodes = Set(["/proc/net/tcp", "/proc/net/tcp6"].flatMap { listeningInodes(table: $0, port: port) })
        guard !inodes.isEmpty else { return [] }
        return holders { inodes.contains($0) }
    }

    /// Inodes of sockets in state LISTEN (0A) on `port` in one of the kernel's tables.
    static func listeningInodes(table: String, port: Int) -> [String] {
        guard let bytes = FileBytes.contents(of: table) else { return [] }
        var inodes: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                  Int(fields[1][fields[1].index(after: colon)...], radix: 16) == port
            else { continue }
            inodes.append("socket:[\(fields[9])]")
        }
        return inodes
    }

    /// Other processes only: whatever this one holds (inherited descriptors) is not the answer.
    private static func holders(matching: (String) -> Bool) -> [Holder] {
        var found: [Holder] = []
        let me = getpid()
        for entry in FileBytes.directoryEntries("/proc") ?? [] {
            guard let pid = Int32(entry), pid != me else { continue }
            for fd in FileBytes.directoryEntries("/proc/\(entry)/fd") ?? [] {
                guard let target = FileBytes.linkTarget("/proc/\(entry)/fd/\(fd)"), matching(target) else { continue }
                let comm = FileBytes.contents(of: "/proc/\(entry)/comm", limit: 64).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                found.append(Holder(pid: pid, name: comm.trimmingWhitespace(), target: target))
                break
            }
        }
        return found
    }
}
