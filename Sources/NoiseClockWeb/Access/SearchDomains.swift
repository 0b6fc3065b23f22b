#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The machine's own DNS search domains, from `/etc/resolv.conf` (`search` and `domain` lines),
/// for the `Host` check: `bedside.home.arpa` is the machine's name only where `home.arpa` is a
/// search domain of the machine. Read again whenever the file changes (DHCP may write it after
/// the node started), checked only when a `Host` needs it.
public final class SearchDomains: Sendable {
    private struct Cache {
        var stamp: [Int] = []
        var domains: [String] = []
    }

    let path: String
    private let cache = Mutex(Cache())

    public init(path: String = "/etc/resolv.conf") {
        self.path = path
    }

    /// The domains now (empty when the file is missing or names none).
    public func current() -> [String] {
        var info = stat()
        let stamp = stat(path, &info) == 0
            ? [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size), Int(info.st_ino)] : []
        return cache.withLock { cache in
            if cache.stamp != stamp {
                cache.stamp = stamp
                cache.domains = stamp.isEmpty ? [] : Self.parse(Self.contents(path))
            }
            return cache.domains
        }
    }

    /// Every domain of every `search` and `domain` line (resolv.conf(5); comments start with `#`
    /// or `;`), lower-cased, without a trailing dot; the root (`.`) is no domain.
    public static func parse(_ text: String) -> [String] {
        var domains: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first, keyword == "search" || keyword == "domain" else { continue }
            for word in words.dropFirst() {
                if word.hasPrefix("#") || word.hasPrefix(";") { break }
                let domain = HostPolicy.bare(word.lowercased())
                if !domain.isEmpty, !domains.contains(domain) { domains.append(domain) }
            }
        }
        return domains
    }

    /// The file's first 64 KiB (resolv.conf is a few lines).
    static func contents(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count <= 0 { break }
            filled += count
        }
        return String(decoding: buffer.prefix(filled), as: UTF8.self)
    }
}
