import CLinux
import Glibc

/// How the process's allocator holds and gives back memory: a node runs for months on a small
/// board, so what it freed must not stay resident.
public enum ProcessMemory {
    /// Both settings below, once, before the node starts its threads.
    public static func configureForLongRuns() {
        giveBackLargeBlocks()
        boundArenas()
    }

    /// A fixed mmap threshold: every allocation of `threshold` bytes or more is a mapping of its
    /// own, unmapped when freed. glibc's threshold otherwise rises to the largest block freed, so
    /// the next blocks that size come from the heap and stay resident after `free`: three 20 MB
    /// MQTT 3.1.1 packets that libmosquitto read (and the node dropped unread) left +40 MB
    /// (issue 31, finding 7; MQTT v5 asks the broker for a maximum packet size instead).
    public static func giveBackLargeBlocks(threshold: Int = 256 * 1024) {
        _ = mallopt(M_MMAP_THRESHOLD, Int32(threshold))
    }

    /// At most `count` malloc arenas. glibc gives each thread that allocates its own arena (up to
    /// 8 per core) and keeps what was freed in each: the week of nights grew +0.7 MB in 7 nights
    /// and +2.4 MB in 60 with the default, and stayed flat with one arena (docs/reliability.md,
    /// "A week of nights"). The node's threads allocate little after start, so two arenas cost
    /// no measurable contention; `MALLOC_ARENA_MAX` in the environment still wins (glibc reads it
    /// first, and an explicit setting here would override it, so it is left alone then).
    public static func boundArenas(count: Int = 2) {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = mallopt(M_ARENA_MAX, Int32(count))
    }
}
