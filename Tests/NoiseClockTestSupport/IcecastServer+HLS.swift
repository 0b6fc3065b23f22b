import Foundation
import Glibc

extension IcecastServer {
    /// The folder `startHLS` writes its playlist and segments into (a test may add its own files).
    public var hlsFolder: String { directory + "/hls" }

    /// An HLS station: FFmpeg writing a tone live (AAC in MPEG-TS, 1 s segments) into `hlsFolder`,
    /// which `serve` serves. The playlist's address.
    public func startHLS(frequency: Int = 440) throws -> String {
        mkdir(hlsFolder, 0o755)
        try start("/usr/bin/ffmpeg", [
            "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=44100", "-c:a", "aac",
            "-b:a", "64k", "-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-hls_flags", "delete_segments", hlsFolder + "/live.m3u8",
        ])
        return try serve(hlsFolder) + "/live.m3u8"
    }

    /// Serves `folder` over plain HTTP (Python's server) on a port of its own, each HLS playlist's
    /// `#EXTINF` given the title "Miles Davis - So What" (FFmpeg writes none), as a station's
    /// segmenter would. The server's address.
    public func serve(_ folder: String) throws -> String {
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
        let port = try freeLoopbackPort()
        try start("/usr/bin/python3", [directory + "/serve.py", String(port), folder])
        return "http://127.0.0.1:\(port)"
    }

    /// Sets `mount`'s ICY title through Icecast's admin interface (Python's urllib, basic auth).
    public func setTitle(mount: String, song: String) throws {
        let status = try run("/usr/bin/python3", ["-c", """
            import base64, sys, urllib.parse, urllib.request
            query = urllib.parse.urlencode({'mount': sys.argv[2], 'mode': 'updinfo', 'song': sys.argv[3]})
            request = urllib.request.Request(sys.argv[1] + '/admin/metadata?' + query)
            request.add_header('Authorization', 'Basic ' + base64.b64encode(b'admin:\(Self.adminPassword)').decode())
            urllib.request.urlopen(request, timeout=5).read()
            """, "http://127.0.0.1:\(port)", mount, song])
        guard status == 0 else { throw TestFailure("Icecast did not take the title") }
    }
}
