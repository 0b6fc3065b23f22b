#if canImport(Glibc)
import Glibc
#endif

/// The few file-system reads the audio module needs, straight on libc.
enum FileAccess {
    /// The whole file, or nil if it cannot be read (capped at 4 MB: it is a catalog, not audio).
    static func read(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return ferror(file) == 0 && bytes.count <= limit ? bytes : nil
    }

    /// Names of regular, non-hidden files in `directory`, sorted; empty if it cannot be read.
    static func listFiles(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// The directory of the running executable (via /proc/self/exe).
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
