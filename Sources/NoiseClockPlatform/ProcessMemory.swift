import CLinux

/// How the process's allocator gives memory back.
public enum ProcessMemory {
    /// A fixed mmap threshold: every allocation of `threshold` bytes or more is a mapping of its
    /// own, unmapped when freed. glibc's threshold otherwise rises to the largest block freed, so
    /// the next blocks that size come from the heap and stay resident after `free`: three 20 MB
    /// MQTT 3.1.1 packets that libmosquitto read (and the node dropped unread) left +40 MB
    /// (issue 31, finding 7; MQTT v5 asks the broker for a maximum packet size instead).
    public static func giveBackLargeBlocks(threshold: Int = 256 * 1024) {
        _ = mallopt(M_MMAP_THRESHOLD, Int32(threshold))
    }
}
