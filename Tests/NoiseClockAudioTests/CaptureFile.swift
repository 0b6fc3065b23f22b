#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// A capture file of the ALSA `file` plugin, as the engine's device: the plugin writes it through
/// a descriptor of this (the test's) process, which it closes when the engine closes the PCM. So
/// "the device is closed" is a fact to wait for, woken by inotify's IN_CLOSE_WRITE, not a pause.
enum CaptureFile {
    /// Whether a descriptor of this process has `path` open (read from /proc/self/fd).
    static func isOpen(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        let target = String(cString: resolved)
        free(resolved)
        guard let directory = opendir("/proc/self/fd") else { return false }
        defer { closedir(directory) }
        var link = [UInt8](repeating: 0, count: Int(PATH_MAX))
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard name.first?.isNumber == true else { continue }
            let count = link.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/" + name, $0.baseAddress!, $0.count) }
            }
            if count > 0, String(decoding: link[..<count], as: UTF8.self) == target { return true }
        }
        return false
    }

    /// Waits until no descriptor of this process holds `path`; false after `timeout` seconds.
    static func waitForClose(_ path: String, timeout: Double) -> Bool {
        let inotify = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard inotify >= 0 else { return false }
        defer { close(inotify) }
        // Watched before the first look, so a close in between still wakes the wait.
        guard inotify_add_watch(inotify, path, UInt32(IN_CLOSE_WRITE)) >= 0 else { return false }
        let end = Clocks.monotonicSeconds() + timeout
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            if !isOpen(path) { return true }
            let left = end - Clocks.monotonicSeconds()
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(left * 1000) + 1)
            _ = read(inotify, &events, events.count)  // drained: the next close wakes the next poll
        }
    }
}
