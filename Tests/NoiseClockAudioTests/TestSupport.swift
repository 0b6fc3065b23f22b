import Logging
import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

enum TestSupport {
    /// Plain RMS of each noise colour at volume 100 (measured over 5 minutes of `render`). They
    /// differ because the noises are matched in A-weighted loudness (`SoundLevel.noiseLoudness`,
    /// checked in NoiseColourTests), not in RMS: the more of a noise's power lies where the ear
    /// is less sensitive, the higher its RMS.
    static let whiteRMS = 0.04324
    static let pinkRMS = 0.05100
    static let brownRMS = 0.1236

    /// The repository's `Resources/sounds.json`, found from this file's path.
    static var catalogFile: String {
        let file = #filePath
        let root = file.split(separator: "/").dropLast(3).joined(separator: "/")
        return "/" + root + "/Resources/sounds.json"
    }

    /// The noise every test library plays: the same samples on every run, so a level check
    /// cannot pass or fail by chance. `NOISECLOCK_TEST_SEED=N swift test ...` tries another.
    static let noiseSeed: UInt64 = getenv("NOISECLOCK_TEST_SEED").flatMap { UInt64(String(cString: $0)) } ?? 20_261_125

    /// Appended to the messages of checks on noise levels, so a failure says how to replay it.
    static var seedNote: String { "(noise seed \(noiseSeed): NOISECLOCK_TEST_SEED=\(noiseSeed) replays it)" }

    /// A library whose noise sources are seeded from `noiseSeed` in the order they are made.
    static func library(sampleRate: Int = 48000, soundsDirectory: String? = nil, stateDirectory: String? = nil) throws -> SoundLibrary {
        try SoundLibrary.load(
            catalogFile: catalogFile, soundsDirectory: soundsDirectory, sampleRate: sampleRate, stateDirectory: stateDirectory,
            seeds: NoiseSeeds(noiseSeed), logger: Logger(label: "test")
        )
    }

    static func makeTemporaryDirectory() -> String {
        var template = Array("/tmp/noiseclock-audio-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Raw S16LE stereo as left and right floats.
    static func readS16Stereo(_ path: String) -> (left: [Float], right: [Float]) {
        guard let file = fopen(path, "rb") else { return ([], []) }
        defer { fclose(file) }
        var left: [Float] = [], right: [Float] = []
        var frame = [Int16](repeating: 0, count: 2048)
        while true {
            let count = frame.withUnsafeMutableBytes { fread($0.baseAddress, 4, 1024, file) }
            if count == 0 { break }
            for i in 0..<count {
                left.append(Float(frame[2 * i]) / 32768)
                right.append(Float(frame[2 * i + 1]) / 32768)
            }
        }
        return (left, right)
    }

    /// Renders a scene through a mixer, returning the left channel (both are alike in level).
    static func mix(_ mixer: Mixer, _ scene: AudioScene, from start: Instant, seconds: Double) -> [Float] {
        let frames = Int(seconds * Double(mixer.library.sampleRate))
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 480)
        defer { buffer.deallocate() }
        var out: [Float] = []
        var done = 0
        while done < frames {
            let now = start.adding(milliseconds: Int64(done * 1000 / mixer.library.sampleRate))
            mixer.render(scene, at: now, frames: 480, into: buffer)
            for i in 0..<480 { out.append(buffer[2 * i]) }
            done += 480
        }
        return out
    }

    /// RMS of consecutive windows of `window` samples.
    static func envelope(_ x: [Float], window: Int) -> [Double] {
        stride(from: 0, to: x.count - window + 1, by: window).map { rms(Array(x[$0..<($0 + window)])) }
    }
}
