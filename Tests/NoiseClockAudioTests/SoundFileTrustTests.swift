import Logging
import NoiseClockCore
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Issue 31 (2, 5): a sound file's header is checked before anything is sized by it, and opening
/// a sound never waits on a FIFO put in a file's place.
@Suite struct SoundFileTrustTests {
    /// A 16-bit PCM WAV whose header says `rate` and `channels` (the shared `pcmWAVBytes`).
    static func wav(rate: UInt32, channels: UInt16, dataBytes: Int = 16 * 1024) -> [UInt8] {
        pcmWAVBytes(rate: rate, channels: channels, dataBytes: dataBytes)
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let file = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    /// The hostile headers of the report, and one past each bound.
    static let hostile: [(rate: UInt32, channels: UInt16, words: String)] = [
        (1, 1, "sample rate 1 Hz"), (2_147_483_647, 1, "sample rate 2147483647 Hz"), (48000, 1000, "1000 channels"),
        (7999, 1, "sample rate 7999 Hz"), (384_001, 2, "sample rate 384001 Hz"), (48000, 9, "9 channels"),
    ]

    @Test(arguments: 0..<hostile.count)
    func aHeaderOutsideTheBoundsIsRefusedWhenOpened(_ index: Int) throws {
        let (rate, channels, words) = Self.hostile[index]
        let directory = TestSupport.makeTemporaryDirectory()
        let path = directory + "/hostile.wav"
        Self.write(Self.wav(rate: rate, channels: channels, dataBytes: 64 * 2 * Int(channels)), to: path)
        do {
            let file = try SoundFile(path: path)
            Issue.record("opened as \(file.sampleRate) Hz, \(file.channels) channels")
        } catch {
            #expect(error.description.contains(words), "\(error)")
        }
    }

    /// The scanner offers only the file within bounds: 1 Hz, 2^31-1 Hz, 0 and 1000 channels are
    /// logged and skipped like any file that cannot be decoded.
    @Test func theScannerSkipsHostileHeadersAndKeepsTheGoodFile() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        Self.write(Self.wav(rate: 1, channels: 1), to: directory + "/one_hz.wav")
        Self.write(Self.wav(rate: 2_147_483_647, channels: 1), to: directory + "/huge_rate.wav")
        Self.write(Self.wav(rate: 48000, channels: 0), to: directory + "/no_channels.wav")
        Self.write(Self.wav(rate: 48000, channels: 1000, dataBytes: 128 * 2000), to: directory + "/many_channels.wav")
        Self.write(Self.wav(rate: 8000, channels: 1), to: directory + "/edge_8k.wav")
        Self.write(Self.wav(rate: 44100, channels: 8), to: directory + "/good.wav")
        let found = SoundLibrary.scan(directory, definitions: [], logger: Logger(label: "test"))
        #expect(found.map(\.id) == ["edge_8k", "good"])
        #expect(found.last?.channels == 8)
    }

    @Test func theBoundsAreAsDocumented() {
        #expect(SoundFormatBounds.problem(sampleRate: 8000, channels: 1, frames: 64) == nil)
        #expect(SoundFormatBounds.problem(sampleRate: 384_000, channels: 8, frames: 384_000 * 100 * 3600) == nil)
        #expect(SoundFormatBounds.problem(sampleRate: 48000, channels: 2, frames: 63)?.contains("too short") == true)
        #expect(SoundFormatBounds.problem(sampleRate: 8000, channels: 2, frames: 8000 * 101 * 3600)?.contains("100 hours") == true)
        #expect(SoundFormatBounds.problem(sampleRate: 48000, channels: 0, frames: 4800)?.contains("0 channels") == true)
    }

    /// A FIFO where a sound file was (as after a swap between a scan's `stat` and its `open`):
    /// opening it is an error at once. Before, `open` waited for a writer that never came.
    @Test func aFIFOInAFilesPlaceIsRefusedAtOnce() async throws {
        let directory = TestSupport.makeTemporaryDirectory()
        let fifo = directory + "/swap.wav"
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = Outcome()
        // A thread of its own: held in `open`, it must not take one of the test pool's few threads.
        let opener = Thread {
            let words: String
            do { _ = try SoundFile(path: fifo); words = "opened" } catch { words = "\(error)" }
            outcome.words.withLock { $0 = words }
        }
        opener.start()
        let start = ContinuousClock.now
        while outcome.words.withLock({ $0 }) == nil, ContinuousClock.now - start < .seconds(2) { try await Task.sleep(for: .milliseconds(10)) }
        let held = outcome.words.withLock { $0 } == nil
        // Let a held opener go: a writer that comes and goes gives it end of file.
        while outcome.words.withLock({ $0 }) == nil {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!held, "opening a FIFO held the opener for 2 s")
        #expect(outcome.words.withLock { $0 } == "not a regular file")
    }
}

/// What the opener's task found, read by the test's loop.
private final class Outcome: Sendable {
    let words = Mutex<String?>(nil)
}
