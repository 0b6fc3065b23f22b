import CStream

/// The decoders past MP3, opened with dlopen when a station first needs one (as `StreamLibrary`
/// is): libfaad2 (AAC, HE-AAC), libogg, libvorbis, libopus and libFLAC. The last four are
/// already mapped by libsndfile in every node, so opening them maps nothing new; an idle node
/// maps none of it beyond what it had. Opened once per process, never closed.
struct CodecLibrary: @unchecked Sendable {
    // @unchecked Sendable: a table of plain C function pointers, written once before it is shared.
    let table: noiseclock_codecs

    static let shared: Result<CodecLibrary, StreamLibrary.LoadError> = open()

    static let names = [
        ("libfaad.so.2", "libfaad2"), ("libogg.so.0", "libogg0"), ("libvorbis.so.0", "libvorbis0a"),
        ("libopus.so.0", "libopus0"), ("libFLAC.so.12", "libflac12"),
    ]

    static func open() -> Result<CodecLibrary, StreamLibrary.LoadError> {
        var handles: [UnsafeMutableRawPointer] = []
        for (name, package) in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                return .failure(StreamLibrary.LoadError(description: "cannot load \(name) (\(reason)); install \(package)"))
            }
            handles.append(handle)
        }
        var table = noiseclock_codecs()
        if let missing = noiseclock_codecs_load(&table, handles[0], handles[1], handles[2], handles[3], handles[4]) {
            return .failure(StreamLibrary.LoadError(description: "a radio decoder lacks \(String(cString: missing))"))
        }
        return .success(CodecLibrary(table: table))
    }
}
