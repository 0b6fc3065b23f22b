import Glibc

/// What `~/info` and `noiseclock doctor` say about the machine and the files the node was given.
public enum SystemIdentity {
    /// `uname -m`: `x86_64`, `aarch64`, `armv7l`; "unknown" if the kernel does not say.
    public static func architecture() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// `path` as an absolute path with symbolic links resolved; relative to the working directory
    /// when the file cannot be resolved (it is reported as given then).
    public static func absolutePath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}
