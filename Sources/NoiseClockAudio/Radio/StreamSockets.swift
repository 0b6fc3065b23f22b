import CLinux
import Glibc
import Synchronization

/// The sockets a station's connections hold open, so that the stop, from another thread, cuts
/// them at once: libcurl notices a stop (its progress callback) only about once a second while
/// nothing arrives, and the station's thread must be gone within a second of the stop. Bound to a
/// player's thread (`current`); `StreamConnection` records each socket it opens and forgets it
/// when libcurl closes it, so a number the system has given to another file is never touched.
///
/// It also tells when the station's bytes last reached the sockets (`arrivedAt`), which is what
/// a stall is judged from: the player reads in batches (every 0.5 s with seconds in hand), so
/// the time of its reads is up to 0.5 s after the bytes came. Bytes arrived = bytes libcurl read
/// (`received`) + bytes waiting in the sockets (FIONREAD); each `look` that finds more than the
/// last one stamps the kernel's time of the last data the open sockets received (TCP_INFO's
/// `tcpi_last_data_recv`, to its 4 ms tick), however late the look: the player need not wake
/// during a batch's wait to see the bytes come (it looked every 0.1 s, ten wake-ups a second,
/// issue 39). libcurl's own bytes (headers, TLS records) make a constant or a few bytes' error,
/// never a false arrival of a whole packet.
final class StreamSockets: Sendable {
    @TaskLocal static var current: StreamSockets?

    private struct State {
        var open: Set<Int32> = []
        var cut = false
        /// Body bytes libcurl handed over, and the most bytes ever seen arrived (read + queued).
        var read = 0
        var arrived = 0
        /// When `arrived` last grew (monotonic milliseconds; 0: never).
        var arrivedAt = 0

        /// Read + queued now; a socket opened or closed re-bases `arrived` without an arrival.
        func total() -> Int { open.reduce(read) { $0 + Self.queued($1) } }

        static func queued(_ socket: Int32) -> Int {
            var count: Int32 = 0
            return ioctl(socket, fionread, &count) == 0 ? Int(max(count, 0)) : 0
        }
    }

    /// FIONREAD from <asm-generic/ioctls.h> (0x541B on Linux), which Glibc's module does not export.
    private static let fionread = UInt(0x541B)

    private let state = Mutex(State())

    /// A socket was opened: false (and it is not kept) once the stream was cut.
    func opened(_ socket: Int32) -> Bool {
        state.withLock { state in
            guard !state.cut else { return false }
            state.open.insert(socket)
            state.arrived = state.total()
            return true
        }
    }

    /// Closes `socket` (libcurl's close callback), under the lock `cut` takes.
    func close(_ socket: Int32) -> Int32 {
        state.withLock { state in
            state.open.remove(socket)
            state.arrived = state.total()
            return Glibc.close(socket)
        }
    }

    /// libcurl handed `bytes` of the body over (its write callback): then a look.
    func received(_ bytes: Int) {
        state.withLock { state in
            state.read += bytes
            Self.look(&state)
        }
    }

    /// Stamps the last data's arrival if more bytes have arrived than at the last look.
    func look() { state.withLock { Self.look(&$0) } }

    private static func look(_ state: inout State) {
        let total = state.total()
        guard total > state.arrived else { return }
        state.arrived = total
        let now = Int(Clocks.monotonicSeconds() * 1000)
        // The most recent data on any open socket; now when the kernel cannot say (no socket left open).
        let since = state.open.compactMap(millisecondsSinceData).min() ?? 0
        state.arrivedAt = max(state.arrivedAt, now - since)
    }

    /// How long ago `socket` last received data (TCP_INFO, milliseconds); nil when it cannot say.
    static func millisecondsSinceData(_ socket: Int32) -> Int? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(socket, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0,
              length >= MemoryLayout<tcp_info>.offset(of: \.tcpi_last_data_recv)! + MemoryLayout<UInt32>.size else { return nil }
        // Bounded: a socket that never received data counts from its connection, hours at most.
        return Int(min(info.tcpi_last_data_recv, 86_400_000))
    }

    /// When the last bytes reached the sockets (monotonic milliseconds; 0: none yet).
    var arrivedAt: Int { state.withLock { $0.arrivedAt } }

    /// Shuts every open socket down (their reads and waits end at once) and refuses new ones.
    func cut() {
        state.withLock { state in
            state.cut = true
            for socket in state.open { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }
}
