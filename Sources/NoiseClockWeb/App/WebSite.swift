import NoiseClockPlatform

/// The pages and their files (`Resources/web/`, a flat folder), read once at start and served
/// from memory: a dozen small files, and no path from a request ever reaches the file system.
public struct WebSite: Sendable {
    public struct File: Sendable {
        public var contentType: String
        public var bytes: [UInt8]
    }

    /// By request path: `/` → index.html, `/alarms` → alarms.html, `/app.css` → app.css.
    public private(set) var files: [String: File] = [:]

    public init(files: [String: File]) {
        self.files = files
    }

    /// Reads every servable file of `directory`; a missing folder gives an empty site (the API works, pages are 404).
    public static func load(directory: String) -> WebSite {
        var files: [String: File] = [:]
        for name in FileBytes.directoryEntries(directory) ?? [] {
            guard let type = contentType(of: name), FileBytes.isRegularFile(directory + "/" + name),
                  let bytes = FileBytes.contents(of: directory + "/" + name, limit: 1 << 20) else { continue }
            let file = File(contentType: type, bytes: bytes)
            if name == "index.html" {
                files["/"] = file
            } else if name.hasSuffix(".html") {
                files["/" + name.dropLast(5)] = file
            } else {
                files["/" + name] = file
            }
        }
        return WebSite(files: files)
    }

    public func file(at path: String) -> File? { files[path] }

    /// All files' bytes together (the contract's page weight bound).
    public var totalBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), !name.hasPrefix(".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        default: return nil
        }
    }
}
