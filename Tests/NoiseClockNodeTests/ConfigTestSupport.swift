import Foundation

/// A private temporary directory for one test's files; removed when the value goes away.
final class ConfigScratch {
    let directory: String

    init() {
        directory = NSTemporaryDirectory() + "noiseclock-config-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `contents` to `name` with the given permissions and returns the full path.
    @discardableResult
    func write(_ name: String, _ contents: String, mode: Int = 0o600) -> String {
        let path = "\(directory)/\(name)"
        let parent = String(path[..<path.lastIndex(of: "/")!])
        try! FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8), attributes: [.posixPermissions: mode])
        try! FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// A config file with `yaml` as its contents.
    func config(_ yaml: String) -> String { write("noiseclock.yaml", yaml) }
}

/// The repository root, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()
