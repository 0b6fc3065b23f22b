import Glibc

/// Whether this process may open the device files in a directory (`/dev/snd`, `/dev/input`) for
/// reading and writing, and when not, which group would let it (`noiseclock doctor`).
public enum DeviceAccess {
    public struct Denied: Sendable, Equatable {
        public var path: String
        /// The file's group (`audio`, `input`), or its number when it has no name.
        public var group: String
        /// This process has the group (then it is the file's mode that refuses, not the group).
        public var inGroup: Bool
    }

    public struct Survey: Sendable, Equatable {
        /// The directory exists (no `/dev/input` on a machine without input devices).
        public var exists: Bool
        public var devices: Int
        public var denied: [Denied]
    }

    /// Character devices directly in `directory`, each tried with access(2) for reading and writing.
    public static func survey(_ directory: String) -> Survey {
        guard let names = FileBytes.directoryEntries(directory) else { return Survey(exists: false, devices: 0, denied: []) }
        let groups = currentGroups()
        var survey = Survey(exists: true, devices: 0, denied: [])
        for name in names.sorted() {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { continue }
            survey.devices += 1
            guard access(path, R_OK | W_OK) != 0 else { continue }
            survey.denied.append(Denied(path: path, group: groupName(info.st_gid), inGroup: groups.contains(info.st_gid)))
        }
        return survey
    }

    /// The user's name (for the advice `adduser NAME audio`).
    public static func userName() -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "\(geteuid())" }
        return String(cString: name)
    }

    private static func currentGroups() -> Set<gid_t> {
        let count = getgroups(0, nil)
        var list = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let read = getgroups(count, &list)
        return Set(list.prefix(Int(max(read, 0)))).union([getegid()])
    }

    private static func groupName(_ gid: gid_t) -> String {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return "\(gid)" }
        return String(cString: name)
    }
}
