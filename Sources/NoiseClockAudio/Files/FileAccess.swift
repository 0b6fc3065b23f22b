import NoiseClockPlatform

/// The few file-system reads the audio module needs, through the node's one file reader.
enum FileAccess {
    /// The whole file, or nil if it cannot be read (capped at 4 MB: it is a catalog, not audio).
    static func read(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
        FileBytes.contents(of: path, limit: limit)
    }

    /// Names of regular, non-hidden files in `directory`, sorted; empty if it cannot be read.
    static func listFiles(_ directory: String) -> [String] {
        (FileBytes.directoryEntries(directory) ?? [])
            .filter { !$0.hasPrefix(".") && FileBytes.isRegularFile(directory + "/" + $0) }
            .sorted()
    }

    /// The directory of the running executable (via /proc/self/exe).
    static func executableDirectory() -> String? {
        guard let path = FileBytes.linkTarget("/proc/self/exe"), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
