import Foundation
import Glibc
import NoiseClockCore
import Synchronization
import Testing

extension ProofSuite.Surroundings {
    /// The speaker goes away while noise plays, then comes back: `~/audio` says `unavailable`, then
    /// `ok`, and sound flows again. The "speaker" is an ALSA `file` PCM (from an ALSA configuration
    /// this test owns) writing into a FIFO the test drains; unplugging closes the FIFO's reading end,
    /// so the node's next write fails (EPIPE), and removes the PCM from the configuration, so
    /// re-opening fails too. Works as root and as non-root.
    @Suite(.serialized) struct FaultAudioTests {
        /// Reads and counts what the node plays into a FIFO, until `unplug()`.
        final class FifoSpeaker: @unchecked Sendable {
            let path: String
            private let fd: Int32
            private let state = Mutex((bytes: 0, open: true))

            init(path: String) throws {
                self.path = path
                guard mkfifo(path, 0o600) == 0 else { throw TestFailure("mkfifo \(path): \(String(cString: strerror(errno)))") }
                fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // no node may inherit a reader
                guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
                let thread = Thread { [self] in drain() }
                thread.start()
            }

            private func drain() {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while state.withLock({ $0.open }) {
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n > 0 { state.withLock { $0.bytes += n } } else { usleep(5_000) }
                }
                close(fd)
            }

            var bytes: Int { state.withLock { $0.bytes } }
            func unplug() { state.withLock { $0.open = false } }
        }

        @Test func speakerRemovedDuringPlaybackIsUnavailableThenPlaysAgain() async throws {
            let alsa = try makeTemporaryDirectory(prefix: "alsa")
            defer { try? FileManager.default.removeItem(at: alsa) }
            let speaker = try FifoSpeaker(path: alsa.appendingPathComponent("speaker.fifo").path)
            try define(in: alsa, file: speaker.path)
            let online = try await OnlineNode.start(subscribing: ["audio", "noise", "availability", "response"], environment: [
                "NOISECLOCK_AUDIO_DEVICE": "nc_speaker",
                "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(alsa.path)/asoundrc",
            ])
            defer { online.shutdown() }
            let (node, client, root) = (online.node, online.client, online.root)
            client.publish("\(root)/noise/set", "ON")
            try await client.waitFor("\(root)/noise", where: { $0.json?["playing"] == true })
            try await client.waitFor("\(root)/audio", timeout: 5, where: { $0.json?["status"] == "ok" })
            // Playing: about 192 kB/s of 48 kHz stereo S16.
            #expect(await FaultSupport.eventually(timeout: 5) { speaker.bytes > 100_000 }, "only \(speaker.bytes) bytes played")

            // Unplug: the PCM leaves the configuration and its open stream breaks.
            var mark = client.messages.count
            try define(in: alsa, file: nil)
            speaker.unplug()
            let gone = try await client.waitFor("\(root)/audio", timeout: 5, after: mark, where: { $0.json?["status"] == "unavailable" })
            #expect(gone.json?["device"] == "nc_speaker")
            #expect(gone.json?["error"]?.stringValue?.isEmpty == false, "\(gone.text)")
            #expect(node.isRunning, "a broken audio stream must not take the node down")
            // Noise is still wanted: the node keeps its state while it cannot play.
            try await client.barrier(root)
            #expect(client.messages.dropFirst(mark).filter { $0.topic == "\(root)/audio" }.allSatisfy { $0.json?["status"] == "unavailable" })
            #expect(client.messages.dropFirst(mark).filter { $0.topic == "\(root)/noise" }.allSatisfy { $0.json?["playing"] == true })

            // Plug a speaker back in (a plain file this time) and it plays again.
            mark = client.messages.count
            let output = alsa.appendingPathComponent("speaker.raw").path
            try define(in: alsa, file: output)
            try await client.waitFor("\(root)/audio", timeout: 8, after: mark, where: { $0.json?["status"] == "ok" })
            #expect(await FaultSupport.eventually(timeout: 5) { fileSize(output) > 100_000 }, "nothing played after the speaker came back")
            #expect(node.isRunning)
        }

        /// Writes the test's ALSA configuration; `file: nil` removes the speaker. A new inode each
        /// time, because ALSA notices a changed file by inode and mtime in whole seconds.
        private func define(in directory: URL, file: String?) throws {
            let text = file.map { "pcm.nc_speaker {\n type file\n slave.pcm null\n file \"\($0)\"\n format raw\n}\n" } ?? ""
            let temp = directory.appendingPathComponent("asoundrc.new")
            try text.write(to: temp, atomically: false, encoding: .utf8)
            guard rename(temp.path, directory.appendingPathComponent("asoundrc").path) == 0 else { throw TestFailure("rename asoundrc") }
        }

        private func fileSize(_ path: String) -> Int {
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
    }
}
