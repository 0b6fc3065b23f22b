import Foundation
import Glibc
import NoiseClockCore
import Testing

/// `settings.json` has one writer, the node's loop (docs/architecture.md, "Settings: one writer"): a Save is
/// carried out on the `node-loop` thread, and the web server's thread answers meanwhile. The
/// write is held where it starts: the spare file the state store writes first
/// (`settings.json.tmp`) is a FIFO, whose open waits for a reader (the kernel's `wait_for_partner`),
/// so the test reads which thread waits there, then lets it go.
@Suite struct SettingsWriterNodeTests {
    @Test func aSaveIsWrittenByTheLoopWhileTheWebThreadAnswers() async throws {
        let rig = try await WebRig.start()
        defer { rig.shutdown() }
        let spare = rig.node.stateDirectory.appendingPathComponent("settings.json.tmp").path
        try #require(mkfifo(spare, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        // Whatever happens, the waiting writer is let go (its write then fails) and the FIFO goes.
        defer { Self.release(spare) }

        let (pid, port, bearer) = (rig.node.pid, rig.port, rig.bearer)
        async let held = WebTestClient.request(port: port, "POST", "/api/settings", headers: bearer,
                                               body: #"{"timezone": "Asia/Seoul", "request_id": "held"}"#)
        let writer = try await Self.threadWaitingOnFIFO(pid: pid)
        #expect(writer == "node-loop", "settings.json is written on the thread \(writer), not the loop's")
        // The write waits; the web server's thread does not: it answers, and shows the file as it is.
        let health = try await rig.get("/healthz")
        #expect(health.status == 200)
        let shown = try JSONParser().parse(try await rig.get("/api/settings").body)
        #expect(shown["values"]?["timezone"] != "Asia/Seoul", "\(shown["values"]?["timezone"] ?? .null)")

        // Let go: the FIFO cannot take the document (no seeking in a pipe), so the Save is a
        // storage error that changes nothing, answered to its request.
        Self.release(spare)
        let failed = try await held
        let answer = try JSONParser().parse(failed.body)
        #expect(failed.status != 200 && answer["error"]?["code"] == "storage_error", "\(failed.text)")
        #expect(answer["request_id"] == "held", "\(failed.text)")
        #expect(!FileManager.default.fileExists(atPath: rig.node.stateDirectory.appendingPathComponent("settings.json").path))

        // With a file to write, the same Save is on disk by the time it is answered.
        let saved = try await rig.post("settings", #"{"timezone": "Asia/Seoul"}"#)
        #expect(saved.status == 200, "\(saved.text)")
        let file = try JSONParser().parse([UInt8](Data(contentsOf: rig.node.stateDirectory.appendingPathComponent("settings.json"))))
        #expect(file["values"]?["timezone"] == "Asia/Seoul", "\(file)")

        // The figure: a Save's answer, written by the loop (20 in a row, the median).
        var took: [Double] = []
        for round in 0..<20 {
            let sent = Date()
            let zone = round.isMultiple(of: 2) ? "Europe/Berlin" : "Asia/Seoul"
            #expect(try await rig.post("settings", #"{"timezone": "\#(zone)"}"#).status == 200)
            took.append(Date().timeIntervalSince(sent) * 1000)
        }
        print("settings: a Save answered in \(Int(took.sorted()[10])) ms (median of 20; max \(Int(took.max() ?? 0)) ms), written by the loop")
    }

    /// The name of the node's thread that waits to open a FIFO (within 10 s).
    static func threadWaitingOnFIFO(pid: Int32) async throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let wchan = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)
                guard wchan?.trimmingCharacters(in: .whitespacesAndNewlines) == "wait_for_partner",
                      let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8) else { continue }
                return name.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("no thread of the node waited on settings.json.tmp within 10 s")
    }

    /// Opens the FIFO for reading (a writer waiting in its open goes on), closes it, removes it.
    static func release(_ path: String) {
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        // Removed first: the writer's next step (after its open) must not find the FIFO again.
        unlink(path)
        if reader >= 0 { close(reader) }
    }
}
