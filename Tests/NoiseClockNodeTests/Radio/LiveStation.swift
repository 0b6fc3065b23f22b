import Foundation
import Glibc

/// The audio tests' `IcecastServer` (Tests/NoiseClockAudioTests/Radio/IcecastServer.swift), for
/// the node's tests, which cannot import that target: a real Icecast 2 on a loopback port, fed by
/// FFmpeg with a 440 Hz tone as 128 kb/s MP3 on `/jazz.mp3`, whose encoder can be stopped alone
/// (`stopSource`: the station goes off the air mid-ring).
final class LiveStation {
    let port: Int
    let directory: String
    private var processes: [Process] = []
    private var source: Process?

    static let sourcePassword = "srcpw", adminPassword = "adminpw"

    /// `burstSize`: the bytes Icecast sends a new listener at once (65535: about 4 s of 128 kb/s).
    init(burstSize: Int = 65535) throws {
        port = try Self.freePort()
        var template = Array("/tmp/noiseclock-station-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        chmod(directory, 0o777)  // icecast2 drops to its own user when started as root
        let owner = getuid() == 0 ? "<changeowner><user>icecast2</user><group>icecast</group></changeowner>" : ""
        let config = """
            <icecast><location>test</location><admin>test@localhost</admin>
            <limits><clients>20</clients><sources>4</sources><source-timeout>10</source-timeout><burst-size>\(burstSize)</burst-size></limits>
            <authentication><source-password>\(Self.sourcePassword)</source-password><admin-user>admin</admin-user>
            <admin-password>\(Self.adminPassword)</admin-password></authentication>
            <hostname>127.0.0.1</hostname><listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
            <paths><basedir>/usr/share/icecast2</basedir><logdir>\(directory)</logdir><webroot>/usr/share/icecast2/web</webroot>
            <adminroot>/usr/share/icecast2/admin</adminroot></paths>
            <logging><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
            <security><chroot>0</chroot>\(owner)</security></icecast>
            """
        _ = FileManager.default.createFile(atPath: directory + "/icecast.xml", contents: Data(config.utf8))
        try launch("/usr/bin/icecast2", ["-c", directory + "/icecast.xml"])
        try waitForPort()
    }

    /// Starts the encoder on `mount` (a 440 Hz tone, MP3 at 128 kb/s, in real time).
    func startSource(mount: String = "/jazz.mp3") throws {
        source = try launch("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
            "-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3",
            "icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)",
        ])
    }

    /// Starts FFmpeg feeding a tone (440 Hz unless told) to `mount` with `encoder`'s arguments (another format).
    func startSource(mount: String, encoder: [String], rate: Int = 44_100, frequency: Int = 440) throws {
        try launch("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(rate)",
        ] + encoder + ["icecast://source:\(Self.sourcePassword)@127.0.0.1:\(port)\(mount)"])
    }

    /// An HLS station: FFmpeg writing a tone live (AAC in MPEG-TS, 1 s segments) into a folder
    /// that Python's HTTP server serves, each `#EXTINF` given the title "Miles Davis - So What"
    /// (FFmpeg writes none). The playlist's address.
    func startHLS(frequency: Int = 440) throws -> String {
        let web = directory + "/hls"
        mkdir(web, 0o755)
        try launch("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=44100", "-c:a", "aac",
            "-b:a", "64k", "-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-hls_flags", "delete_segments", web + "/live.m3u8",
        ])
        let script = #"""
            import http.server, os, re, sys
            os.chdir(sys.argv[2])
            class Handler(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    if not self.path.endswith('.m3u8'): return super().do_GET()
                    try: text = open(self.translate_path(self.path)).read()
                    except OSError: return self.send_error(404)
                    body = re.sub(r'(#EXTINF:[0-9.]+),.*', r'\1,Miles Davis - So What', text).encode()
                    self.send_response(200)
                    self.send_header('Content-Type', 'application/vnd.apple.mpegurl')
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Handler).serve_forever()
            """#
        _ = FileManager.default.createFile(atPath: directory + "/serve.py", contents: Data(script.utf8))
        let port = try Self.freePort()
        try launch("/usr/bin/python3", [directory + "/serve.py", String(port), web])
        return "http://127.0.0.1:\(port)/live.m3u8"
    }

    /// Sets `mount`'s ICY title through Icecast's admin interface (Python's urllib, basic auth).
    func setTitle(mount: String, song: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import base64, sys, urllib.parse, urllib.request
            query = urllib.parse.urlencode({'mount': sys.argv[2], 'mode': 'updinfo', 'song': sys.argv[3]})
            request = urllib.request.Request(sys.argv[1] + '/admin/metadata?' + query)
            request.add_header('Authorization', 'Basic ' + base64.b64encode(b'admin:\(Self.adminPassword)').decode())
            urllib.request.urlopen(request, timeout=5).read()
            """, "http://127.0.0.1:\(port)", mount, song]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StationError(description: "Icecast did not take the title") }
    }

    /// Stops the encoder (SIGKILL to its pid: it is cut off, as a source that dies): Icecast drops the mount's listeners.
    func stopSource() {
        guard let source, source.isRunning else { return }
        kill(source.processIdentifier, SIGKILL)
        for _ in 0..<40 where source.isRunning { usleep(50_000) }
    }

    var adminURL: String { "http://admin:\(Self.adminPassword)@127.0.0.1:\(port)/admin" }

    func url(_ mount: String) -> String { "http://127.0.0.1:\(port)\(mount)" }

    /// SIGTERM to each of its own processes (by pid), then up to 2 s for them to go.
    func stop() {
        for process in processes.reversed() where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<40 where processes.contains(where: \.isRunning) { usleep(50_000) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        processes = []
    }

    deinit { stop() }

    @discardableResult
    private func launch(_ path: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        processes.append(process)
        return process
    }

    private func waitForPort() throws {
        for _ in 0..<100 {
            if Self.accepts(port) { return }
            usleep(50_000)
        }
        throw StationError(description: "icecast2 did not listen on \(port) within 5 s (see \(directory)/error.log)")
    }

    struct StationError: Error, CustomStringConvertible { var description: String }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A loopback port free now (bound to port 0, read back, closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw StationError(description: "no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
