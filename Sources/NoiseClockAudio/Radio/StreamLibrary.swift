import CStream

/// The radio's libraries, opened with dlopen when a station is first used (docs/sounds.md,
/// "Radio: why these libraries"): libcurl (HTTP, HTTPS, redirects), libfaad2 (AAC, HE-AAC) and
/// libmpg123 (MP3; already mapped by libsndfile).
/// Linked at build time they would be mapped into every node, radio or not (about 4 MB of RSS,
/// 1.5 MB of PSS); FFmpeg's libraries, the alternative, would map 22 MB. Opened once per process
/// (`shared`), never closed: a station played once is likely played again.
public struct StreamLibrary: Sendable {
    public struct LoadError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    typealias GlobalInit = @convention(c) (Int) -> CURLcode
    // `CURL` is `typedef void`: a raw pointer in Swift.
    typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias EasyCleanup = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias EasyPerform = @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    typealias EasyStrerror = @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    typealias VersionInfo = @convention(c) (CURLversion) -> UnsafeMutablePointer<curl_version_info_data>?
    typealias SlistAppend = @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    typealias SlistFree = @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    typealias MP3New = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    typealias MP3Handle = @convention(c) (OpaquePointer?) -> Int32
    typealias MP3Delete = @convention(c) (OpaquePointer?) -> Void
    typealias MP3Format = @convention(c) (OpaquePointer?, Int, Int32, Int32) -> Int32
    typealias MP3Rates = @convention(c) (UnsafeMutablePointer<UnsafePointer<Int>?>?, UnsafeMutablePointer<Int>?) -> Void
    typealias MP3Decode = @convention(c) (
        OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?
    ) -> Int32
    typealias MP3GetFormat = @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
    ) -> Int32
    typealias AACOpen = @convention(c) () -> NeAACDecHandle?
    typealias AACCapabilities = @convention(c) () -> UInt
    typealias AACClose = @convention(c) (NeAACDecHandle?) -> Void

    // Function pointers from dlsym, plain C: Sendable in fact, though Swift cannot see it.
    nonisolated(unsafe) let easyInit: EasyInit
    nonisolated(unsafe) let easyCleanup: EasyCleanup
    nonisolated(unsafe) let easyPerform: EasyPerform
    nonisolated(unsafe) let easyStrerror: EasyStrerror
    nonisolated(unsafe) let versionInfo: VersionInfo
    /// `curl_easy_setopt` and `curl_easy_getinfo`, called through CStream's variadic shims.
    nonisolated(unsafe) let setopt: UnsafeMutableRawPointer
    nonisolated(unsafe) let getinfo: UnsafeMutableRawPointer
    nonisolated(unsafe) let slistAppend: SlistAppend
    nonisolated(unsafe) let slistFree: SlistFree
    nonisolated(unsafe) let mp3New: MP3New
    nonisolated(unsafe) let mp3Delete: MP3Delete
    nonisolated(unsafe) let mp3OpenFeed: MP3Handle
    nonisolated(unsafe) let mp3FormatNone: MP3Handle
    nonisolated(unsafe) let mp3Format: MP3Format
    nonisolated(unsafe) let mp3Rates: MP3Rates
    nonisolated(unsafe) let mp3Decode: MP3Decode
    nonisolated(unsafe) let mp3GetFormat: MP3GetFormat
    nonisolated(unsafe) let aacOpen: AACOpen
    nonisolated(unsafe) let aacCapabilities: AACCapabilities
    nonisolated(unsafe) let aacClose: AACClose

    static let curlName = "libcurl.so.4"
    static let faadName = "libfaad.so.2"
    /// Already mapped by libsndfile: opening it again costs nothing.
    static let mpg123Name = "libmpg123.so.0"

    /// The process's one copy: opened on first use (a Swift global is initialised once, on
    /// whichever thread first reads it), the reason kept when it cannot be.
    public static let shared: Result<StreamLibrary, LoadError> = open()

    static func open() -> Result<StreamLibrary, LoadError> {
        func library(_ name: String, package: String) -> Result<UnsafeMutableRawPointer, LoadError> {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                return .failure(LoadError(description: "cannot load \(name) (\(reason)); install \(package)"))
            }
            return .success(handle)
        }
        skipOpenSSLErrorStrings()
        let curl: UnsafeMutableRawPointer, faad: UnsafeMutableRawPointer, mpg123: UnsafeMutableRawPointer
        switch (library(curlName, package: "libcurl4"), library(faadName, package: "libfaad2"), library(mpg123Name, package: "libmpg123-0")) {
        case (.success(let c), .success(let f), .success(let m)): (curl, faad, mpg123) = (c, f, m)
        case (.failure(let error), _, _), (_, .failure(let error), _), (_, _, .failure(let error)): return .failure(error)
        }
        func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _ type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let globalInit = symbol(curl, "curl_global_init", GlobalInit.self),
              let easyInit = symbol(curl, "curl_easy_init", EasyInit.self),
              let easyCleanup = symbol(curl, "curl_easy_cleanup", EasyCleanup.self),
              let easyPerform = symbol(curl, "curl_easy_perform", EasyPerform.self),
              let easyStrerror = symbol(curl, "curl_easy_strerror", EasyStrerror.self),
              let versionInfo = symbol(curl, "curl_version_info", VersionInfo.self),
              let setopt = dlsym(curl, "curl_easy_setopt"), let getinfo = dlsym(curl, "curl_easy_getinfo"),
              let slistAppend = symbol(curl, "curl_slist_append", SlistAppend.self),
              let slistFree = symbol(curl, "curl_slist_free_all", SlistFree.self),
              let mp3New = symbol(mpg123, "mpg123_new", MP3New.self), let mp3Delete = symbol(mpg123, "mpg123_delete", MP3Delete.self),
              let mp3OpenFeed = symbol(mpg123, "mpg123_open_feed", MP3Handle.self),
              let mp3FormatNone = symbol(mpg123, "mpg123_format_none", MP3Handle.self),
              let mp3Format = symbol(mpg123, "mpg123_format", MP3Format.self), let mp3Rates = symbol(mpg123, "mpg123_rates", MP3Rates.self),
              let mp3Decode = symbol(mpg123, "mpg123_decode", MP3Decode.self),
              let mp3GetFormat = symbol(mpg123, "mpg123_getformat", MP3GetFormat.self),
              let aacOpen = symbol(faad, "NeAACDecOpen", AACOpen.self),
              let aacCapabilities = symbol(faad, "NeAACDecGetCapabilities", AACCapabilities.self),
              let aacClose = symbol(faad, "NeAACDecClose", AACClose.self)
        else { return .failure(LoadError(description: "\(curlName) or \(faadName) lacks a function the radio needs")) }
        // Once, before any thread makes a handle (curl_global_init is not thread-safe; `shared`
        // runs this once).
        guard globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { return .failure(LoadError(description: "libcurl could not start")) }
        return .success(StreamLibrary(
            easyInit: easyInit, easyCleanup: easyCleanup, easyPerform: easyPerform, easyStrerror: easyStrerror, versionInfo: versionInfo,
            setopt: setopt, getinfo: getinfo, slistAppend: slistAppend, slistFree: slistFree,
            mp3New: mp3New, mp3Delete: mp3Delete, mp3OpenFeed: mp3OpenFeed, mp3FormatNone: mp3FormatNone, mp3Format: mp3Format,
            mp3Rates: mp3Rates, mp3Decode: mp3Decode, mp3GetFormat: mp3GetFormat,
            aacOpen: aacOpen, aacCapabilities: aacCapabilities, aacClose: aacClose))
    }

    /// curl_global_init starts OpenSSL with its error strings, ~0.6 MB of tables a station never
    /// shows (a TLS failure is `tls`, and a certificate's reason has its own strings). Starting it
    /// first without them keeps them out; libmosquitto's TLS, when configured, started it already.
    private static func skipOpenSSLErrorStrings() {
        typealias InitSSL = @convention(c) (UInt64, OpaquePointer?) -> Int32
        guard let ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) ?? dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL),
              let initSSL = dlsym(ssl, "OPENSSL_init_ssl").map({ unsafeBitCast($0, to: InitSSL.self) }) else { return }
        _ = initSSL(UInt64(OPENSSL_INIT_NO_LOAD_SSL_STRINGS) | UInt64(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS), nil)
    }

    /// libcurl's version and whether it speaks HTTPS (Debian's is built with OpenSSL).
    public var curlVersion: (version: String, https: Bool) {
        // CURLVERSION_NOW is a macro Swift cannot import; `version` and `features` lead every version's struct.
        guard let info = versionInfo(CURLVERSION_TENTH)?.pointee else { return ("unknown", false) }
        let version = info.version.map { String(cString: $0) } ?? "unknown"
        return (version, info.features & CURL_VERSION_SSL != 0)
    }

    /// Whether libfaad2 decodes AAC LC (HE-AAC's SBR and PS are always built in Debian's).
    public var decodesAAC: Bool { aacCapabilities() & UInt(LC_DEC_CAP) != 0 }
}
