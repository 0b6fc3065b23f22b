import Dispatch
import Glibc
import NoiseClockConfig

/// One input is a whole configuration file. It is written to a scratch file and loaded with
/// `NodeConfiguration.load` exactly as `noiseclock --config` does (no environment overrides), so
/// the YAML parser (libyaml and our composer), the strict schema walk, the layered reader and every check
/// run. The loader may refuse the file, but only with a `ConfigurationError` naming a key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = ScratchFile.path
    guard let file = fopen(path, "wb") else { preconditionFailure("cannot write \(path)") }
    if count > 0 { _ = fwrite(data, 1, count, file) }
    fclose(file)

    let outcome = ScratchFile.loadBlocking(path)
    switch outcome {
    case .success(let loaded):
        precondition(!loaded.configuration.nodeID.isEmpty, "loaded a configuration without a node id")
    case .failure(let error):
        precondition(!error.key.isEmpty && !error.message.isEmpty, "an error that names nothing: \(error)")
    }
    return 0
}

enum ScratchFile {
    /// One file per fuzzing process (libFuzzer's -jobs run several).
    static let path = "/tmp/noiseclock-fuzz-config-\(getpid()).yaml"

    /// `load` is async only because its callers are; it never suspends on I/O, so waiting here is safe.
    static func loadBlocking(_ path: String) -> Result<LoadedConfiguration, ConfigurationError> {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(ConfigurationError) {
                box.result = .success(try await NodeConfiguration.load(path: path, environment: [:], hostName: "fuzzhost"))
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return box.result!
    }
}

/// Carries the result out of the task. @unchecked Sendable: written once by the task before it
/// signals the semaphore, read only after the wait returns.
final class ResultBox: @unchecked Sendable {
    var result: Result<LoadedConfiguration, ConfigurationError>?
}

/// SwiftPM links an executable target with `main` aliased to `FuzzConfig_main`, which would hide
/// libFuzzer's own `main`; so this is that function, and it hands over to libFuzzer's driver.
@_cdecl("FuzzConfig_main")
func fuzzConfigMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzConfig)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// libFuzzer's C symbol, named as libFuzzer names it.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
