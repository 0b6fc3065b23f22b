import Foundation
import NoiseClockCore
@testable import NoiseClockNode
import Synchronization
import Testing

/// The preroll measured where the user meets it (issue 39): the first sample of the station's
/// 440 Hz tone in the ALSA capture, against the alarm's minute, not the node's own `sounding`
/// (sent when a block with a peak of 1 LSB reaches ALSA). The station answers only after 1.5 s;
/// the node's clock is moved to 6 s before each minute (inside its 30 s preroll). Twenty rings,
/// five on each of four nodes side by side; worst ≤ 0.5 s after the minute.
///
/// A frame's moment is when the node handed it to ALSA: a sampler reads the capture file's length
/// every 5 ms, and the tone's first frame is dated by the first look that found it written (an
/// upper bound, by at most the look's period and the test's own lateness).
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StreamPrerollCaptureNodeTests {
    typealias Failsafe = TimingSuite.Audio.AlarmFailsafeTests
    static let nodes = 4, ringsPerNode = 5
    static let bound = 0.5
    /// The tone's first sample: the first above -40 dBFS (the station, levelled, peaks near -6 dBFS;
    /// the output's dither is ±1 LSB).
    static let threshold: Float = 0.01

    /// (wall time, frames in the capture file), every 5 ms while running.
    final class Sampler: Sendable {
        let looks = Mutex<[(Date, Int)]>([])
        let running = Atomic<Bool>(true)

        /// The first moment the capture held `frame`.
        func written(_ frame: Int) -> Date? { looks.withLock { $0.first { $0.1 > frame }?.0 } }
    }

    @Test func theStationsToneIsInTheCaptureWithinHalfASecondOfTheMinute() async throws {
        let (station, _) = try await StreamRingNodeTests.station()
        defer { station.stop() }
        let port = station.port
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for lane in 0..<Self.nodes { group.addTask { try await Self.rings(lane: lane, stationPort: port) } }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        let shown = latencies.sorted().map { "\(Int($0 * 1000))" }.joined(separator: " ")
        print("preroll at the capture: \(latencies.count) rings, the minute → the station's first sample, worst "
            + "\(Int((latencies.max() ?? .nan) * 1000)) ms: \(shown) ms (a station answering after 1.5 s)")
        #expect(latencies.count == Self.nodes * Self.ringsPerNode, "rings measured: \(latencies.count)")
        #expect((latencies.max() ?? .infinity) <= Self.bound, "the station's first sample in the capture within 0.5 s of the minute")
        #expect((latencies.min() ?? -1) >= 0, "not before the minute")
    }

    /// Upward zero crossings a second over the 10 ms windows that peak above `threshold`, and the
    /// share of the windows that do.
    static func tonePitch(_ samples: [Float]) -> (hertz: Double, audible: Double) {
        let window = AudioCapture.frames(0.01)
        var audible = 0, windows = 0
        for start in stride(from: 0, to: samples.count - window, by: window) {
            windows += 1
            if samples[start..<(start + window)].contains(where: { abs($0) >= threshold }) { audible += 1 }
        }
        // The pitch from the periods between rising zero crossings, the median of those no longer
        // than 10 ms whose cycle is audible (a dry ring's gap, or its dither, is not a period).
        // Counting crossings per audible window read low where a window was half gap: 414 Hz for
        // the 440 Hz tone once.
        var rising: [Int] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 { rising.append(index) }
        let periods = zip(rising, rising.dropFirst()).filter { start, end in
            end - start <= window && samples[start..<end].contains(where: { abs($0) >= threshold })
        }.map { $1 - $0 }.sorted()
        let hertz = periods.isEmpty ? 0 : Double(AudioCapture.frames(1)) / Double(periods[periods.count / 2])
        return (hertz, Double(audible) / Double(max(windows, 1)))
    }

    /// The capture's frame count once 0.2 s in a row were below the threshold (within 10 s).
    static func quiet(_ capture: AudioCapture) async throws -> Int {
        let window = AudioCapture.frames(0.2)
        for _ in 0..<50 {
            let end = capture.frames
            if end >= window, try Failsafe.peak(capture, end - window, end) < threshold { return end }
            try await capture.waitForFrames(end + window)
        }
        throw TestFailure("the capture never fell quiet")
    }

    static func rings(lane: Int, stationPort: Int) async throws -> [Double] {
        let proxy = try FaultProxy(upstreamPort: stationPort, silence: [])
        defer { proxy.stop() }
        proxy.mode = .slowStart(1.5)
        let harness = try await AudioNodeHarness.started(device: "nc_preroll_capture_\(lane)")
        defer { harness.shutdown() }
        let capture = harness.capture
        try await harness.addStation(proxy.url("/jazz.mp3"))
        var latencies: [Double] = [], gaps: [Double] = []
        defer { print("preroll at the capture, lane \(lane): the first second after the first sample silent (a dry ring) "
            + gaps.map { "\(Int($0 * 100)) %" }.joined(separator: ", ")) }
        for ring in 0..<ringsPerNode {
            let boundary = NodeTime.minute(hour: 6, minute: 30 + ring)
            try await harness.node.setClock(to: boundary.addingTimeInterval(-40))
            let time = MinuteBoundary.clockTime(boundary)
            let added = try await harness.command("alarm/add", #"{"time": "\#(time)", "sound": "radio:jazz", "volume": 80, "ramp_seconds": 0}"#)
            let id = try #require(added.response["result"]?["id"]?.stringValue)
            let index = harness.client.messages.count
            let sampler = Sampler()
            let looking = Task.detached {
                while sampler.running.load(ordering: .relaxed) {
                    let look = (Date(), capture.frames)
                    sampler.looks.withLock { $0.append(look) }
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
            // The last ring's fade-out is written after its dismiss was answered: the tone is
            // searched for from a quiet capture on.
            let from = try await Self.quiet(capture)
            try await harness.node.setClock(to: boundary.addingTimeInterval(-6))
            let verdict = try await Failsafe.verdict(harness, after: index, timeout: 10)
            #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == false, "lane \(lane) ring \(ring): \(verdict.text)")
            try await capture.waitForFrames(capture.frames + AudioCapture.frames(0.5))
            sampler.running.store(false, ordering: .relaxed)
            await looking.value
            let samples = try capture.read(from..<capture.frames).left
            let first = try #require(samples.firstIndex { abs($0) >= threshold }, "lane \(lane) ring \(ring): no station in the capture")
            // The tone's pitch over its audible 10 ms windows of the first second (a dry ring's gap
            // is no crossing), and how much of that second was a gap (printed: the ring's cushion).
            try await capture.waitForFrames(from + first + AudioCapture.frames(1))
            let heard = try capture.read((from + first)..<(from + first + AudioCapture.frames(1))).left
            let (pitch, audible) = Self.tonePitch(heard)
            #expect(abs(pitch - 440) <= 25, "lane \(lane) ring \(ring): the first sound is the station's tone (\(pitch) Hz)")
            gaps.append(1 - audible)
            let written = try #require(sampler.written(from + first), "lane \(lane) ring \(ring): the sampler never saw frame \(from + first)")
            let latency = harness.node.nodeTime(of: written).timeIntervalSince(boundary)
            print("preroll at the capture, lane \(lane) ring \(ring): the minute → the station's first sample \(Int(latency * 1000)) ms "
                + "(sounding \(Int(harness.node.nodeTime(of: verdict.at).timeIntervalSince(boundary) * 1000)) ms)")
            latencies.append(latency)
            try await harness.command("alarm/dismiss", "")
            try await harness.command("alarm/delete", id)
        }
        return latencies
    }
}
