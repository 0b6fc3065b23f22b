import Foundation
import Glibc

/// A capture PCM for the node: an ALSA configuration of the test's own (handed to the node
/// process as ALSA_CONFIG_PATH) whose PCMs are `file` plugins writing raw S16LE stereo frames
/// into this directory. The node's real ALSA path runs unchanged; the test reads the samples back.
final class AudioCapture: @unchecked Sendable {
    static let sampleRate = 48000
    static let bytesPerFrame = 4
    let directory: URL
    let device: String
    /// A mixer for the device (`withMixer`): the control device of the same name.
    let mixer: AlsaMixerFixture?

    /// `defined: false` starts with an empty configuration: the device is missing until `define()`.
    /// `withMixer`: the PCM gets a control device of its name with a Master switch and volume.
    init(device: String, defined: Bool = true, withMixer: Bool = false) throws {
        directory = try makeTemporaryDirectory(prefix: "alsa")
        self.device = device
        mixer = withMixer ? try AlsaMixerFixture(device: device, directory: directory) : nil
        try write(defined ? pcmDefinition : "")
    }

    /// The node's environment: our ALSA configuration and our device.
    var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:" + directory.appendingPathComponent("asoundrc").path, "NOISECLOCK_AUDIO_DEVICE": device]
    }

    /// Makes the device appear (a speaker plugged in).
    func define() throws { try write(pcmDefinition) }

    var captureFile: URL { directory.appendingPathComponent("\(device).raw") }

    private var pcmDefinition: String {
        "pcm.\(device) {\n type file\n slave.pcm null\n file \"\(captureFile.path)\"\n format raw\n}\n" + (mixer?.definition ?? "")
    }

    /// A new inode each time: ALSA notices a changed file by inode and mtime (whole seconds),
    /// so an in-place rewrite within the same second would go unseen.
    private func write(_ text: String) throws {
        let staging = directory.appendingPathComponent("asoundrc.new")
        try text.write(to: staging, atomically: false, encoding: .utf8)
        guard rename(staging.path, directory.appendingPathComponent("asoundrc").path) == 0 else {
            throw TestFailure("cannot install the ALSA configuration in \(directory.path)")
        }
    }

    /// Whole frames written so far.
    var frames: Int {
        var info = stat()
        return stat(captureFile.path, &info) == 0 ? Int(info.st_size) / Self.bytesPerFrame : 0
    }

    /// Left and right channels of frames `range`, as floats in -1...1.
    func read(_ range: Range<Int>) throws -> (left: [Float], right: [Float]) {
        let handle = try FileHandle(forReadingFrom: captureFile)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(range.lowerBound * Self.bytesPerFrame))
        let data = try handle.read(upToCount: range.count * Self.bytesPerFrame) ?? Data()
        guard data.count == range.count * Self.bytesPerFrame else {
            throw TestFailure("capture holds \(frames) frames; asked for \(range)")
        }
        var left = [Float](), right = [Float]()
        left.reserveCapacity(range.count)
        right.reserveCapacity(range.count)
        data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            for frame in 0..<range.count {
                left.append(Float(Int16(littleEndian: samples[2 * frame])) / 32768)
                right.append(Float(Int16(littleEndian: samples[2 * frame + 1])) / 32768)
            }
        }
        return (left, right)
    }

    /// Frames `seconds` after the frame count `mark`.
    static func frames(_ seconds: Double) -> Int { Int(seconds * Double(sampleRate)) }

    /// Waits until the capture holds at least `count` frames.
    func waitForFrames(_ count: Int, timeout: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while frames < count {
            guard Date() < deadline else { throw TestFailure("capture stuck at \(frames) frames, waiting for \(count)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
