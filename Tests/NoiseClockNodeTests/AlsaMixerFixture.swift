import Foundation
import Glibc

/// A sound card's mixer without a sound card: Tests/Fixtures/alsa-mixer-fixture.c, an ALSA
/// external control plugin, built here with cc (once per test process) and named in the test's
/// own ALSA configuration as the control device of the same name as the node's PCM. Its "Master"
/// playback switch and volume are what this fixture's file says.
final class AlsaMixerFixture: Sendable {
    /// The plugin, built once: `libasound_module_ctl_nc_fixture.so` in a directory of its own.
    static let plugin: Result<String, TestFailure> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/alsa-mixer-fixture.c").path
        do {
            let directory = try makeTemporaryDirectory(prefix: "alsa-plugin")
            let library = directory.appendingPathComponent("libasound_module_ctl_nc_fixture.so").path
            let log = directory.appendingPathComponent("cc.log").path
            // Debian's cc (build-essential), else the Swift toolchain's clang (both on PATH).
            let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            let compilers = ["cc", "clang"].flatMap { name in path.map { "\($0)/\(name)" } }
            guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                return .failure(TestFailure("no C compiler (cc or clang) on PATH to build \(source)"))
            }
            let cc = try ChildProcess(path: compiler, arguments: ["-shared", "-fPIC", "-O1", "-o", library, source, "-lasound"],
                                      environment: ProcessInfo.processInfo.environment, logPath: log)
            guard cc.wait(timeout: 60) == 0 else {
                return .failure(TestFailure("cc could not build \(source): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"))
            }
            return .success(library)
        } catch {
            return .failure(TestFailure("cannot build the ALSA mixer fixture: \(error)"))
        }
    }()

    let file: URL
    let definition: String

    /// The control device `device` (name it as the node's PCM), reading `file`.
    init(device: String, directory: URL) throws {
        let library = try Self.plugin.get()
        file = directory.appendingPathComponent("\(device).mixer")
        definition = "ctl_type.nc_fixture { lib \"\(library)\" }\nctl.\(device) {\n type nc_fixture\n file \"\(file.path)\"\n}\n"
    }

    /// Sets the Master playback switch and volume (0-100) the next read sees.
    func set(on: Bool, volume: Int) throws {
        let staging = file.appendingPathExtension("new")
        try "\(on ? 1 : 0) \(volume)\n".write(to: staging, atomically: false, encoding: .utf8)
        guard rename(staging.path, file.path) == 0 else { throw TestFailure("cannot set the mixer file \(file.path)") }
    }
}
