import Foundation
import Testing
@testable import NoiseClockNode

/// Runs the install scripts into a scratch root (DESTDIR: no user, no systemctl) and loads what they installed.
@Suite("install scripts", .serialized)
struct ConfigInstallScriptTests {
    @discardableResult
    func run(_ script: String, _ arguments: [String], destdir: String, purge: Bool = false) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["\(packageRoot)/scripts/\(script)"] + arguments
        var environment = ["DESTDIR": destdir, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        if purge { environment["PURGE"] = "1" }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("install puts a config that loads, keeps it on reinstall; uninstall keeps it unless PURGE=1")
    func roundTrip() async throws {
        let scratch = ConfigScratch()
        let root = scratch.directory + "/root"
        let binary = scratch.write("noiseclock", "#!/bin/sh\n", mode: 0o755)
        #expect(try run("install.sh", [binary, "/opt/nc"], destdir: root) == 0)

        let manager = FileManager.default
        #expect(manager.isExecutableFile(atPath: root + "/opt/nc/bin/noiseclock"))
        let unit = try String(contentsOfFile: root + "/etc/systemd/system/noiseclock.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/opt/nc/bin/noiseclock --config /etc/noiseclock/noiseclock.yaml"))
        #expect(unit.contains("Type=notify"))
        // The package's unit, moved under PREFIX: its documentation too, the manual page installed.
        #expect(unit.contains("Documentation=man:noiseclock(1) file:///opt/nc/share/doc/noiseclock/configuration.md"))
        #expect(manager.fileExists(atPath: root + "/opt/nc/share/man/man1/noiseclock.1"))

        let config = root + "/etc/noiseclock/noiseclock.yaml"
        let loaded = try await NodeConfiguration.load(path: config, environment: [:], hostName: "Clock-1")
        #expect(loaded.configuration.stateDirectory == "/var/lib/noiseclock")
        #expect(loaded.configuration.nodeID == "clock-1")
        #expect(loaded.warnings.isEmpty)

        try "node_id: mine\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try run("install.sh", [binary, "/opt/nc"], destdir: root) == 0)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "node_id: mine\n")

        #expect(try run("uninstall.sh", ["/opt/nc"], destdir: root) == 0)
        #expect(!manager.fileExists(atPath: root + "/opt/nc/bin/noiseclock"))
        #expect(!manager.fileExists(atPath: root + "/etc/systemd/system/noiseclock.service"))
        #expect(!manager.fileExists(atPath: root + "/opt/nc/share/man/man1/noiseclock.1"))
        #expect(manager.fileExists(atPath: config))
        #expect(manager.fileExists(atPath: root + "/var/lib/noiseclock"))

        #expect(try run("uninstall.sh", ["/opt/nc"], destdir: root, purge: true) == 0)
        #expect(!manager.fileExists(atPath: config))
        #expect(!manager.fileExists(atPath: root + "/var/lib/noiseclock"))
    }

    @Test("install refuses a missing binary")
    func missingBinary() throws {
        let scratch = ConfigScratch()
        #expect(try run("install.sh", [scratch.directory + "/nope", "/usr/local"], destdir: scratch.directory) != 0)
    }
}
