import Foundation
import Glibc
import NoiseClockCore
import NoiseClockNode
import Testing

/// `noiseclock doctor --json` as a user runs it, on real parts: a PCM of the test's own ALSA
/// configuration (and its mixer through the control fixture), a real mosquitto (with a password
/// file where the password is wrong), a port the test itself listens on, a sounds folder with a
/// file that is not audio. Each broken part is named by its own check; a healthy setup is all OK.
@Suite struct DoctorTests {
    struct Run {
        let status: Int32?
        let report: JSONValue
        let output: String
        let milliseconds: Int

        func check(_ id: String) -> JSONValue? { report["checks"]?.arrayValue?.first { $0["id"] == .string(id) } }
        func status(_ id: String) -> String? { check(id)?["status"]?.stringValue }
        func verdict(_ id: String) -> String { check(id)?["verdict"]?.stringValue ?? "" }
    }

    /// Runs the doctor on `node`'s configuration with `environment` (the ALSA configuration, overrides).
    static func doctor(_ node: NodeProcess, _ environment: [String: String]) throws -> Run {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOISECLOCK_") }
        env["NOISECLOCK_TEST_CLOCK_FILE"] = node.clockFile.path
        env["NOISECLOCK_WEB_ENABLED"] = "false"
        for (key, value) in environment { env[key] = value }
        let log = node.directory.appendingPathComponent("doctor-\(UUID().uuidString.prefix(6)).json")
        let started = Date()
        let child = try ChildProcess(path: NodeProcess.binary.path, arguments: ["doctor", "--json", "--config", node.configFile.path],
                                     environment: env, logPath: log.path)
        let status = child.wait(timeout: 30)
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let report = try JSONParser().parse(Array(output.utf8))
        return Run(status: status, report: report, output: output, milliseconds: milliseconds)
    }

    /// The node's binary and `sounds.json` copied into `directory` as an installed node lays them
    /// out, every folder on the way readable by anyone; returns the copy's path.
    /// Copied by `install` in a process of its own: a copy written by this process would leave its
    /// descriptor to a test forking beside it, and exec would fail with ETXTBSY (status 126).
    static func installedCopy(in directory: URL) throws -> URL {
        let binary = directory.appendingPathComponent("bin/noiseclock")
        let catalog = directory.appendingPathComponent("share/noiseclock/sounds.json")
        for (source, target, mode) in [(NodeProcess.binary.resolvingSymlinksInPath(), binary, "0755"),
                                       (NodeProcess.packageRoot.appendingPathComponent("Resources/sounds.json"), catalog, "0644")] {
            let copy = try ChildProcess(path: "/usr/bin/install", arguments: ["-D", "-m", mode, source.path, target.path],
                                        environment: [:], logPath: directory.appendingPathComponent("install.log").path)
            guard copy.wait(timeout: 30) == 0 else { throw TestFailure("install \(source.path) failed") }
        }
        for folder in ["bin", "share", "share/noiseclock"] { chmod(directory.appendingPathComponent(folder).path, 0o755) }
        return binary
    }

    static func soundsFolder(_ node: NodeProcess, broken: Bool) throws -> URL {
        let folder = node.directory.appendingPathComponent("sounds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TimingSuite.Audio.AlarmFailsafeTests.wav().write(to: folder.appendingPathComponent("tone.wav"))
        // Not audio: what a half-copied or renamed file looks like (root reads anything, so a
        // chmod 000 file would not fail for the tests; the decoder's refusal is the real case).
        if broken { try Data("this is not a WAV file\n".utf8).write(to: folder.appendingPathComponent("broken.wav")) }
        return folder
    }

    @Test func aHealthyNodeIsAllOK() throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port)
        try node.writeClockSync("synced")
        let capture = try AudioCapture(device: "nc_doctor_ok", withMixer: true)
        try #require(capture.mixer).set(on: true, volume: 80)
        var environment = capture.environment.merging(NodeProcess.web(port: try freeLoopbackPort())) { $1 }
        environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = try Self.soundsFolder(node, broken: false).path
        let run = try Self.doctor(node, environment)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.report["ok"] == true)
        let failed = run.report["checks"]?.arrayValue?.filter { $0["status"] == "failed" } ?? []
        #expect(failed.isEmpty, "\(failed.map(\.serialized))")
        for id in ["configuration", "sound_device", "mixer", "clock", "timezone", "web_port", "sounds", "broker"] {
            #expect(run.status(id) == "ok", "\(id): \(run.verdict(id))")
        }
        #expect(run.verdict("mixer").contains("Master: switch on, volume 80 %"), "\(run.verdict("mixer"))")
        #expect(run.verdict("sounds").contains("1 sound file"), "\(run.verdict("sounds"))")
        print("doctor on a healthy node: \(run.milliseconds) ms (exit \(run.status ?? -1))")
    }

    @Test func aMutedMixerIsNamed() throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port)
        try node.writeClockSync("synced")
        let capture = try AudioCapture(device: "nc_doctor_muted", withMixer: true)
        try #require(capture.mixer).set(on: false, volume: 80)
        let run = try Self.doctor(node, capture.environment)
        #expect(run.status == 1)
        #expect(run.status("sound_device") == "ok")
        #expect(run.status("mixer") == "failed")
        #expect(run.verdict("mixer").contains("Master playback switch is off"), "\(run.verdict("mixer"))")
        #expect(run.check("mixer")?["advice"]?.stringValue?.contains("amixer") == true)
    }

    /// One run, four broken parts: a PCM that cannot open, a broker refusing the password, the web
    /// port taken (by this test process), a sounds file that is not audio; and an unsynced clock.
    @Test func eachBrokenPartIsNamed() throws {
        let secrets = try ProofSuite.Surroundings.SecurityTLSTests.passwordDirectory(user: "clock", password: "right-password", then: """
            printf '%s\\n' wrong-password > wrong.pw
            chmod 0600 wrong.pw
            """)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let broker = try TestBroker(extraConfig: """
            listener $PORT 127.0.0.1
            allow_anonymous false
            password_file \(secrets.path)/passwd
            persistence false
            """)
        let node = try NodeProcess(brokerPort: broker.port)
        try node.writeClockSync("unsynced")
        // A PCM the configuration defines but that cannot be opened: its slave does not exist.
        let alsa = node.directory.appendingPathComponent("asoundrc")
        try "pcm.nc_doctor_bad {\n type plug\n slave.pcm \"nc_doctor_nowhere\"\n}\n".write(to: alsa, atomically: true, encoding: .utf8)
        let taken = try LoopbackListener()
        let run = try Self.doctor(node, NodeProcess.web(port: taken.port).merging([
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + alsa.path, "NOISECLOCK_AUDIO_DEVICE": "nc_doctor_bad",
            "NOISECLOCK_MQTT_USERNAME": "clock", "NOISECLOCK_MQTT_PASSWORD_FILE": secrets.path + "/wrong.pw",
            "NOISECLOCK_AUDIO_SOUNDS_DIR": try Self.soundsFolder(node, broken: true).path,
        ]) { $1 })
        #expect(run.status == 1)
        #expect(run.report["ok"] == false)
        #expect(run.status("configuration") == "ok")
        #expect(run.status("sound_device") == "failed")
        #expect(run.verdict("sound_device").contains("nc_doctor_bad does not open"), "\(run.verdict("sound_device"))")
        #expect(run.status("mixer") == "skipped")
        #expect(run.status("broker") == "failed")
        #expect(run.check("broker")?["advice"]?.stringValue?.contains("credentials") == true, "\(run.verdict("broker"))")
        #expect(run.status("web_port") == "failed")
        #expect(run.verdict("web_port").contains("PID \(getpid())"), "\(run.verdict("web_port"))")
        #expect(run.status("sounds") == "failed")
        #expect(run.verdict("sounds").contains("broken.wav cannot be decoded"), "\(run.verdict("sounds"))")
        #expect(run.status("clock") == "failed")
    }

    /// A lamp that answers its bridge's state request (a Zigbee2MQTT stand-in: mosquitto_sub and
    /// mosquitto_pub in a shell loop) is OK; a shaker whose plug never answers is named, even
    /// with its last state retained on the broker (a dead device's last word).
    @Test func aLampThatAnswersAndAShakerThatDoesNot() async throws {
        let broker = try TestBroker()
        let node = try NodeProcess(brokerPort: broker.port)
        try node.writeClockSync("synced")
        let client = try await TestClient(port: broker.port, subscriptions: ["zigbee2mqtt/#"])
        defer { client.shutdown() }
        client.publish("zigbee2mqtt/doctor_plug", #"{"state":"OFF"}"#, retain: true)
        // A session of its own, so the whole pipeline goes with one kill; -W 30: gone by itself anyway.
        let bridge = try ChildProcess(path: "/usr/bin/setsid", arguments: ["sh", "-c", """
            mosquitto_sub -W 30 -h 127.0.0.1 -p \(broker.port) -t zigbee2mqtt/doctor_lamp/get | while read -r _; do
                mosquitto_pub -h 127.0.0.1 -p \(broker.port) -t zigbee2mqtt/doctor_lamp -m '{"state":"ON","brightness":200}'
            done
            """], environment: ["PATH": "/usr/bin:/bin"], logPath: node.directory.appendingPathComponent("bridge.log").path)
        defer { kill(-bridge.pid, SIGKILL) }
        // The stand-in is listening once it answers a request of the test's own.
        for attempt in 0..<50 where client.messages(on: "zigbee2mqtt/doctor_lamp").isEmpty {
            client.publish("zigbee2mqtt/doctor_lamp/get", #"{"state":""}"#)
            _ = try? await client.waitFor("zigbee2mqtt/doctor_lamp", timeout: attempt < 49 ? 0.2 : 5)
        }
        let run = try Self.doctor(node, [
            "NOISECLOCK_DEVICES_LIGHT_TOPIC": "zigbee2mqtt/doctor_lamp", "NOISECLOCK_DEVICES_SHAKER_TOPIC": "zigbee2mqtt/doctor_plug",
        ])
        #expect(run.status("broker") == "ok")
        #expect(run.status("lamp") == "ok", "\(run.verdict("lamp"))")
        #expect(run.verdict("lamp").contains("zigbee2mqtt/doctor_lamp (zigbee2mqtt) answered"), "\(run.verdict("lamp"))")
        #expect(run.status("shaker") == "failed", "\(run.verdict("shaker"))")
        #expect(run.verdict("shaker").contains("did not answer"), "\(run.verdict("shaker"))")
    }

    /// A sounds folder the node's user may list but not enter (r without x). As root (CI) the doctor
    /// runs as `nobody` through setpriv, since root enters anything; otherwise as this user.
    /// `nobody` runs a copy of the binary and the catalog laid out as installed (`bin/`,
    /// `share/noiseclock/`) in the node's folder: a clone in a 0700 folder (root's home, any
    /// `mktemp -d`) is out of its reach, and the verdict would name the catalog, not the folder.
    @Test func aSoundsFolderTheUserCannotEnterIsNamed() throws {
        let node = try NodeProcess(brokerPort: try freeLoopbackPort())
        let folder = try Self.soundsFolder(node, broken: false)
        let asRoot = getuid() == 0
        chmod(node.directory.path, 0o755)
        chmod(node.configFile.path, 0o644)
        chmod(folder.path, asRoot ? 0o744 : 0o644)
        defer { chmod(folder.path, 0o755) }
        let log = node.directory.appendingPathComponent("doctor-nobody.json").path
        let binary = try Self.installedCopy(in: node.directory)
        let doctor = [binary.path, "doctor", "--json", "--config", node.configFile.path]
        let child = asRoot
            ? try ChildProcess(path: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups"] + doctor,
                               environment: ["NOISECLOCK_AUDIO_SOUNDS_DIR": folder.path], logPath: log)
            : try ChildProcess(path: doctor[0], arguments: Array(doctor.dropFirst()), environment: ["NOISECLOCK_AUDIO_SOUNDS_DIR": folder.path],
                               logPath: log)
        #expect(child.wait(timeout: 30) == 1)
        let report = try JSONParser().parse(Array(try String(contentsOfFile: log, encoding: .utf8).utf8))
        let sounds = try #require(report["checks"]?.arrayValue?.first { $0["id"] == "sounds" })
        #expect(sounds["status"] == "failed")
        #expect(sounds["verdict"]?.stringValue?.contains("\(folder.path) cannot be read") == true, "\(sounds.serialized)")
    }

    /// A sound device whose group the user lacks: a real device node (mknod, as root only) in the
    /// audio group, mode 0660, under a stand-in for /dev; the doctor run as `nobody` without the
    /// group names the group and the command, and with the group (setpriv --groups) is OK.
    @Test(.enabled(if: getuid() == 0, "mknod and setpriv need root")) func aDeviceOfAGroupTheUserLacksIsNamed() throws {
        let node = try NodeProcess(brokerPort: try freeLoopbackPort())
        chmod(node.directory.path, 0o755)
        chmod(node.configFile.path, 0o644)
        let dev = node.directory.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: dev.appendingPathComponent("snd"), withIntermediateDirectories: true)
        let pcm = dev.appendingPathComponent("snd/pcmC0D0p").path
        let audio = try #require(getgrnam("audio")).pointee.gr_gid
        // ALSA's first playback PCM, major 116 minor 16 (glibc's makedev for small numbers).
        guard mknod(pcm, S_IFCHR | 0o660, dev_t((116 << 8) | 16)) == 0 else { throw TestFailure("mknod: \(String(cString: strerror(errno)))") }
        chown(pcm, 0, audio)
        chmod(pcm, 0o660)
        let binary = try Self.installedCopy(in: node.directory)
        func run(groups: [String]) throws -> JSONValue? {
            let log = node.directory.appendingPathComponent("doctor-\(UUID().uuidString.prefix(6)).json").path
            let child = try ChildProcess(
                path: "/usr/bin/setpriv",
                arguments: ["--reuid=65534", "--regid=65534"] + groups + [binary.path, "doctor", "--json", "--config",
                    node.configFile.path],
                environment: [NodeConfiguration.testDeviceDirectoryKey: dev.path], logPath: log)
            _ = child.wait(timeout: 30)
            let report = try JSONParser().parse(Array(try String(contentsOfFile: log, encoding: .utf8).utf8))
            return report["checks"]?.arrayValue?.first { $0["id"] == "sound_access" }
        }
        let without = try #require(try run(groups: ["--clear-groups"]))
        #expect(without["status"] == "failed", "\(without.serialized)")
        #expect(without["verdict"]?.stringValue?.contains("cannot open 1 of 1 devices") == true, "\(without.serialized)")
        #expect(without["verdict"]?.stringValue?.contains("group audio") == true, "\(without.serialized)")
        #expect(without["advice"]?.stringValue?.contains("adduser nobody audio") == true, "\(without.serialized)")
        let with = try #require(try run(groups: ["--groups=\(audio)"]))
        #expect(with["status"] == "ok", "\(with.serialized)")
    }

    /// The text form: one line per check and the summary.
    @Test func theTextFormSaysWhatToDo() throws {
        let node = try NodeProcess(brokerPort: try freeLoopbackPort())
        let log = node.directory.appendingPathComponent("doctor.txt")
        let child = try ChildProcess(path: NodeProcess.binary.path, arguments: ["doctor", "--config", node.configFile.path],
                                     environment: ["NOISECLOCK_TEST_CLOCK_FILE": node.clockFile.path], logPath: log.path)
        #expect(child.wait(timeout: 30) == 1)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("FAILED  broker"), "\(text)")
        #expect(text.contains("-> is the broker running"), "\(text)")
        #expect(text.hasSuffix("failed.\n"), "\(text)")
    }
}
