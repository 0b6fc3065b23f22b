import Foundation
import Glibc
import NoiseClockCore
import Synchronization
import Testing

/// Issue 31 (2, 5) on the real node: a sound file whose header claims 1 Hz is not offered and
/// cannot be played, now or after a restart; a FIFO swapped in during rescans does not stop
/// later files from appearing; a node whose audio driver is stuck still stops within 5 s,
/// `offline` published.
@Suite struct SoundTrustNodeTests {
    /// A 16-bit PCM WAV whose header says `rate` and `channels`, byte by byte.
    static func wav(rate: UInt32, channels: UInt16 = 2, dataBytes: Int = 16 * 1024) -> Data {
        Data(pcmWAVBytes(rate: rate, channels: channels, dataBytes: dataBytes))
    }

    /// A speaker every node can open: a `null` PCM (takes samples, never blocks; the node paces).
    static func speaker(_ directory: URL) throws -> [String: String] {
        let file = directory.appendingPathComponent("asoundrc")
        try "pcm.nc_trust_speaker { type null }\n".write(to: file, atomically: true, encoding: .utf8)
        return ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(file.path)", "NOISECLOCK_AUDIO_DEVICE": "nc_trust_speaker"]
    }

    /// The ids on the next `~/sounds` (after `mark`) whose noise list passes `predicate`.
    static func sounds(_ running: OnlineNode, after mark: Int = 0, timeout: Double = 5, _ predicate: @escaping @Sendable ([String]) -> Bool)
        async throws -> [String] {
        let message = try await running.client.waitFor("\(running.root)/sounds", timeout: timeout, after: mark, where: {
            predicate(Self.ids($0))
        })
        return Self.ids(message)
    }

    static func ids(_ message: TestClient.Received) -> [String] {
        (message.json?["noise"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// Sends `payload` to `topic` and returns the node's answer.
    static func ask(_ running: OnlineNode, _ topic: String, _ payload: String) async throws -> JSONValue {
        let mark = running.client.messages.count
        running.client.publish("\(running.root)/\(topic)", payload)
        let answer = try await running.client.waitFor("\(running.root)/response", after: mark, where: { $0.json?["command"] == .string(topic) })
        return try #require(answer.json)
    }

    /// Before: the file was offered, `noise/set` said ok and the node's RSS climbed by ~300 MB a
    /// second on one full core (the reader's buffer sized for 48000 output frames per input frame).
    @Test func aHeaderSaying1HzIsNotOfferedAndPlayingItIsAnError() async throws {
        let sounds = try makeTemporaryDirectory(prefix: "sounds")
        defer { try? FileManager.default.removeItem(at: sounds) }
        try Self.wav(rate: 48000).write(to: sounds.appendingPathComponent("good.wav"))
        try Self.wav(rate: 1).write(to: sounds.appendingPathComponent("one_hz.wav"))
        var environment = try Self.speaker(sounds)
        environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = sounds.path
        let running = try await OnlineNode.start(environment: environment)
        defer { running.shutdown() }
        let offered = try await Self.sounds(running) { $0.contains("good") }
        #expect(!offered.contains("one_hz"), "\(offered)")
        let noise = try await Self.ask(running, "noise/set", #"{"playing": true, "sound": "one_hz", "volume": 50}"#)
        #expect(noise["ok"] == false, "\(noise)")
        let alarm = try await Self.ask(running, "alarm/add", #"{"time": "07:00", "sound": "one_hz"}"#)
        #expect(alarm["ok"] == false, "\(alarm)")
        try await running.client.barrier(running.root)
        let kilobytes = try #require(residentKilobytes(pid: running.node.pid))
        print("1 Hz header refused; node RSS \(kilobytes / 1024) MB")
        #expect(kilobytes < 150 * 1024, "RSS \(kilobytes) kB")
        #expect(running.node.log.contains("sample rate 1 Hz is outside 8000-384000 Hz"))
    }

    /// The saved state plays a file that has since become a 1 Hz header (replaced while the node
    /// was down). Before: the restarted node played it and climbed again (a crash loop on a Pi);
    /// now it is not in the catalog, and the noise plays brown, saying why.
    @Test func aSavedNoiseWhoseFileTurnedHostileRestartsOnBrown() async throws {
        let sounds = try makeTemporaryDirectory(prefix: "sounds")
        defer { try? FileManager.default.removeItem(at: sounds) }
        let file = sounds.appendingPathComponent("night.wav")
        try Self.wav(rate: 48000).write(to: file)
        var environment = try Self.speaker(sounds)
        environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = sounds.path
        let running = try await OnlineNode.start(environment: environment)
        defer { running.shutdown() }
        _ = try await Self.sounds(running) { $0.contains("night") }
        #expect(try await Self.ask(running, "noise/set", #"{"playing": true, "sound": "night", "volume": 50}"#)["ok"] == true)
        running.node.signal(SIGTERM)
        #expect(running.node.waitForExit() == 0)
        try Self.wav(rate: 1).write(to: file)
        let mark = running.client.messages.count
        try running.node.start()
        try await running.client.waitFor("\(running.root)/availability", timeout: 10, after: mark, where: { $0.text == "online" })
        let noise = try await running.client.waitFor("\(running.root)/noise", timeout: 5, after: mark, where: { $0.json?["sound"] == "brown" })
        #expect(noise.json?["playing"] == true)
        #expect(noise.json?["error"]?.stringValue?.contains("night") == true, "\(noise.text)")
        try await running.client.barrier(running.root)
        let kilobytes = try #require(residentKilobytes(pid: running.node.pid))
        #expect(kilobytes < 150 * 1024, "RSS \(kilobytes) kB")
    }

    /// `swap.wav` flips between a WAV and a FIFO (hard links renamed over it) while the node
    /// rescans: some rescan's `stat` sees the file and its `open` the FIFO (a quarter of them, as
    /// forty files are opened between the two). Before, that `open`
    /// waited for a writer forever, holding the watcher: no file added later ever appeared.
    @Test func aFIFOSwappedInDuringRescansDoesNotStopLaterFilesFromAppearing() async throws {
        let sounds = try makeTemporaryDirectory(prefix: "sounds")
        defer { try? FileManager.default.removeItem(at: sounds) }
        let path: @Sendable (String) -> String = { sounds.appendingPathComponent($0).path }
        try Self.wav(rate: 48000).write(to: sounds.appendingPathComponent(".wave"))
        #expect(mkfifo(path(".fifo"), 0o600) == 0)
        try Self.wav(rate: 48000).write(to: sounds.appendingPathComponent("swap.wav"))
        // Forty files opened before it: the scan `stat`s every name, then opens them in order, so
        // these put some milliseconds between `swap.wav`'s `stat` and its `open`.
        for index in 0..<40 { try Self.wav(rate: 48000).write(to: sounds.appendingPathComponent(String(format: "a%02d.wav", index))) }
        var environment = try Self.speaker(sounds)
        environment["NOISECLOCK_AUDIO_SOUNDS_DIR"] = sounds.path
        let running = try await OnlineNode.start(environment: environment)
        defer { running.shutdown() }
        _ = try await Self.sounds(running) { $0.contains("swap") }
        let stop = Flag()
        let swapper = Thread {
            var flips = 0
            while !stop.value.load(ordering: .relaxed) {
                let source = flips % 2 == 0 ? path(".fifo") : path(".wave")
                link(source, path(".next"))
                rename(path(".next"), path("swap.wav"))
                flips += 1
                usleep(100)
            }
        }
        swapper.start()
        defer { stop.value.store(true, ordering: .relaxed) }
        // Rescans while it flips (a few a second): `swap` leaves and rejoins the list as they see it
        // change. Ten changes seen are about twenty rescans, each with about a quarter's chance
        // of meeting the FIFO between its `stat` and its `open`.
        let topic = "\(running.root)/sounds"
        let first = running.client.messages(on: topic).count
        let start = ContinuousClock.now
        while running.client.messages(on: topic).count < first + 10, ContinuousClock.now - start < .seconds(15) {
            try await Task.sleep(for: .milliseconds(20))
        }
        stop.value.store(true, ordering: .relaxed)
        #expect(running.client.messages(on: topic).count >= first + 10, "the rescans stopped while swap.wav flipped")
        let mark = running.client.messages.count
        try Self.wav(rate: 44100).write(to: sounds.appendingPathComponent("later.wav"))
        _ = try await Self.sounds(running, after: mark) { $0.contains("later") }
    }

    /// The speaker's driver stuck in a write (an ALSA `file` PCM writing into a FIFO nobody reads):
    /// the audio service never returns from its stop. Before, SIGTERM left the node running; now
    /// the shutdown deadline publishes `offline` and ends it (status 1) within 5 s.
    @Test func aStuckAdapterStillStopsWithin5sAndOfflineIsPublished() async throws {
        let directory = try makeTemporaryDirectory(prefix: "stuck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("speaker.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open for reading, never read: the writer blocks once the pipe's 64 KiB are full.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let alsa = directory.appendingPathComponent("asoundrc")
        try "pcm.nc_stuck { type file slave.pcm null file \"\(fifo)\" format raw }\n".write(to: alsa, atomically: true, encoding: .utf8)
        let running = try await OnlineNode.start(environment: [
            "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(alsa.path)", "NOISECLOCK_AUDIO_DEVICE": "nc_stuck",
        ])
        defer { running.shutdown() }
        #expect(try await Self.ask(running, "noise/set", #"{"playing": true, "sound": "brown", "volume": 50}"#)["ok"] == true)
        // Wait until the pipe is (nearly) full: the audio thread is in, or a block away from, a
        // write that will not return (it writes in 4 KiB pieces: one stops at 60 of the 64 KiB).
        let start = ContinuousClock.now
        var queued: Int32 = 0
        while ContinuousClock.now - start < .seconds(10) {
            _ = ioctl(reader, UInt(FIONREAD), &queued)
            if queued >= 48 * 1024 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(queued >= 48 * 1024, "the speaker's pipe holds \(queued) bytes")
        let mark = running.client.messages.count
        let signalled = ContinuousClock.now
        running.node.signal(SIGTERM)
        let status = running.node.waitForExit(timeout: 10)
        let took = ContinuousClock.now - signalled
        print("stuck audio: SIGTERM to exit \(took), status \(String(describing: status))")
        #expect(status != nil && took < .seconds(5), "exit after \(took): \(String(describing: status))")
        #expect(status == 1, "a forced stop says so")
        try await running.client.waitFor("\(running.root)/availability", timeout: 2, after: mark, where: { $0.text == "offline" })
        #expect(running.node.log.contains("shutdown not finished after 3.0 s"))
        if status == nil { running.node.killHard() }
    }
}

/// A stop flag a plain thread can read.
private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
