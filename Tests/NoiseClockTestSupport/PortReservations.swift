import Foundation
import Glibc
import Synchronization

/// A loopback port no other test (in this process or another) will be handed while this one starts its listener.
///
/// A port that bind(0) found free is free only until someone else asks: parallel suites and their clients' outgoing
/// connections draw from the same ephemeral range, and one CI run lost a mosquitto to that race. So the port comes
/// from below the ephemeral range (no outgoing connection takes it), and each one is claimed with a lock file that
/// this process holds until it exits: no other suite (nor the browser rig, scripts/loopback_port.py) takes it.
/// (Leaving the port in TIME_WAIT would not do: mosquitto 2.0 binds without SO_REUSEADDR.)
public func freeLoopbackPort() throws -> Int {
    try PortReservations.shared.claim()
}

/// The ports this process has claimed, each held by a lock file until it exits.
final class PortReservations: Sendable {
    static let low = 20_000
    static let span = 12_000 // up to 31 999, below Linux's ephemeral range (32 768 – 60 999)
    static let lockDirectory = "/tmp/noiseclock-port-locks"
    static let shared = PortReservations()
    private struct Claims {
        /// Spread by process id so parallel suites start apart, then onward.
        var next = low + Int(getpid()) * 379 % span
        var heldLocks: [Int32] = []
    }

    private let claims = Mutex(Claims())

    func claim() throws -> Int {
        try claims.withLock { claims throws -> Int in try claim(&claims) }
    }

    private func claim(_ claims: inout Claims) throws -> Int {
        // Shared by every user's test runs (root's and a newcomer's): world-writable and sticky,
        // whatever the umask (chmod fails harmlessly where another user made it).
        mkdir(Self.lockDirectory, 0o777)
        chmod(Self.lockDirectory, 0o1777)
        for _ in 0..<Self.span {
            let port = claims.next
            claims.next = Self.low + (claims.next - Self.low + 1) % Self.span
            guard let fd = lockFile(for: port) else { continue }
            if isUnbound(port) {
                claims.heldLocks.append(fd)
                return port
            }
            close(fd)
        }
        throw TestFailure("no free loopback port in \(Self.low)..<\(Self.low + Self.span)")
    }

    private func lockFile(for port: Int) -> Int32? {
        let path = "\(Self.lockDirectory)/\(port)"
        // Another user's lock file (0644 under its umask) is opened read-only: flock needs no write access.
        var fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        if fd >= 0 { _ = fchmod(fd, 0o666) } else { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Nothing else (a program outside the tests) holds the port: a plain bind succeeds.
    /// CLOEXEC: another test of this process starting a child in the moment the probe is bound
    /// would otherwise hand the bound socket to that child for its whole life, and the port's
    /// owner would find it "already in use" (WebAPITests' node did so once in make test).
    private func isUnbound(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
