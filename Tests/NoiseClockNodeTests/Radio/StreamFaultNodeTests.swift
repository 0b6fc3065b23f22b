import Foundation
import Glibc
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// Issue 29's faults at the ring on the real node (real mosquitto, real ALSA into the test's file
/// PCM), each made by the tests' own `FaultProxy` on loopback: the fallback tone at the speaker
/// within `stream.timeout_seconds` + 1 s of the fire, `sounding` with `fallback: true`,
/// `stream_unavailable` and the cause. One case after the other (each its own node, ~25 s in
/// all): side by side, six nodes starting at once starved the stage's other tests on a loaded
/// machine; the stage's time is the sleep radio's anyway. `make stream-test`.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StreamFaultNodeTests {
    typealias Failsafe = TimingSuite.Audio.AlarmFailsafeTests

    enum Fault: String, CaseIterable, Sendable {
        case refuse, hang, notFound = "not_found", stall, silence, dns

        /// The cause `sounding` must give.
        var cause: String {
            switch self {
            case .refuse: "refused"
            case .hang, .stall: "timeout"
            case .notFound: "http_404"
            case .silence: "silent"
            case .dns: "dns"
            }
        }

        var mode: FaultProxy.Mode {
            switch self {
            case .refuse, .dns: .refuse
            case .hang: .hang
            case .notFound: .notFound
            case .stall: .stall
            case .silence: .silence
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aFaultAtTheRingRingsTheFallbackToneWithItsCause(_ fault: Fault) async throws {
        let proxy = try FaultProxy(upstreamPort: try freeLoopbackPort(), silence: fault == .silence ? try FaultProxy.silentMP3() : [])
        defer { proxy.stop() }
        proxy.mode = fault.mode
        let harness = try await AudioNodeHarness.started(device: "nc_fault_\(fault.rawValue)")
        defer { harness.shutdown() }
        let capture = harness.capture
        let url = fault == .dns ? "http://station.invalid/live.mp3" : proxy.url("/live.mp3")
        try await harness.command("station/add", #"{"id": "faulty", "name": "Faulty", "url": "\#(url)"}"#)
        let added = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "radio:faulty", "volume": 80, "ramp_seconds": 0}"#)
        let id = try #require(added.response["result"]?["id"]?.stringValue)

        let index = harness.client.messages.count
        let mark = try await harness.command("alarm/test", id).mark
        let fired = try await harness.client.waitFor("\(harness.root)/alarm/fired", after: index)
        let verdict = try await Failsafe.verdict(harness, after: index, timeout: 10)
        let seconds = verdict.at.timeIntervalSince(fired.at)
        print("fault \(fault.rawValue) at the ring: fire → sounding (fallback) \(Int(seconds * 1000)) ms: \(verdict.text)")
        #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == true, "\(verdict.text)")
        #expect(verdict.json?["reason"] == "stream_unavailable")
        #expect(verdict.json?["cause"]?.stringValue == fault.cause, "\(verdict.text)")
        #expect(seconds >= 0 && seconds < Double(StreamSettings().timeoutSeconds) + 1)
        // The tone is at the speaker.
        let from = max(mark, capture.frames)
        try await capture.waitForFrames(from + AudioCapture.frames(0.6))
        #expect(try Failsafe.peak(capture, from, from + AudioCapture.frames(0.6)) > 0.1, "the fallback tone is audible")
        try await harness.command("alarm/dismiss", "")
    }
}

/// Faults once the station plays (stream stage): a stall mid-ring gives the fallback tone within
/// 6 s, and an alarm's station is connected `stream.preroll_seconds` ahead, so even a station that
/// takes 1.5 s to answer is at the speaker within 0.5 s of the minute. One after the other.
@Suite(.serialized, .enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct StreamRingNodeTests {
    typealias Failsafe = TimingSuite.Audio.AlarmFailsafeTests

    /// A live station (small burst: the node's ring holds little more than its 0.3 s prime) behind a proxy.
    static func station() async throws -> (IcecastServer, FaultProxy) {
        let station = try IcecastServer(burstSize: 4096)
        try station.startSource()
        // Up to 15 s: the stream stage starts several Icecasts and encoders at once on a loaded machine.
        for _ in 0..<60 {
            if await ReadinessService.probeStation(station.url("/jazz.mp3"), allowsLocalAddresses: true) == nil {
                return (station, try FaultProxy(upstreamPort: station.port, silence: []))
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw TestFailure("the Icecast mount never came on the air")
    }

    /// A node on `device` ringing an alarm on `proxy`'s `/jazz.mp3` (as `jazz`): `sounding`
    /// without the fallback, and a second of it at the capture.
    static func ringingOnStation(_ proxy: FaultProxy, device: String) async throws -> AudioNodeHarness {
        let harness = try await AudioNodeHarness.started(device: device)
        do {
            try await harness.addStation(proxy.url("/jazz.mp3"))
            let added = try await harness.command("alarm/add", #"{"time": "03:00", "sound": "radio:jazz", "volume": 80, "ramp_seconds": 0}"#)
            let id = try #require(added.response["result"]?["id"]?.stringValue)
            let (_, verdict, _) = try await Failsafe.ring(harness, id)
            #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == false, "\(verdict.text)")
            try await harness.capture.waitForFrames(harness.capture.frames + AudioCapture.frames(1))
        } catch {
            harness.shutdown()
            throw error
        }
        return harness
    }

    @Test func aStallMidRingGivesTheFallbackToneWithinSixSeconds() async throws {
        let (station, proxy) = try await Self.station()
        defer { proxy.stop(); station.stop() }
        let harness = try await Self.ringingOnStation(proxy, device: "nc_midring_stall")
        defer { harness.shutdown() }

        let index = harness.client.messages.count
        let stalled = Date()
        proxy.mode = .stall
        let fallback = try await Failsafe.verdict(harness, after: index, timeout: 10)
        let seconds = fallback.at.timeIntervalSince(stalled)
        print("stall mid-ring → fallback sounding \(Int(seconds * 1000)) ms: \(fallback.text)")
        #expect(fallback.json?["fallback"] == true && fallback.json?["reason"] == "stream_unavailable", "\(fallback.text)")
        #expect(fallback.json?["cause"] == "stalled", "\(fallback.text)")
        #expect(seconds < 6, "the fallback within 6 s of the stall")
        try await harness.command("alarm/dismiss", "")
    }

    /// A station that turns to digital silence while ringing: 10 s of it at the player's output
    /// (after what its ring still held) and the fallback tone rings, `silent`.
    @Test func aStationTurningToSilenceMidRingGivesTheFallbackTone() async throws {
        let (station, plain) = try await Self.station()
        plain.stop()
        let proxy = try FaultProxy(upstreamPort: station.port, silence: try FaultProxy.silentMP3())
        defer { proxy.stop(); station.stop() }
        let harness = try await Self.ringingOnStation(proxy, device: "nc_midring_silence")
        defer { harness.shutdown() }
        let capture = harness.capture

        let index = harness.client.messages.count
        let silent = Date()
        let switched = capture.frames
        proxy.mode = .silence
        let fallback: TestClient.Received
        do {
            fallback = try await Failsafe.verdict(harness, after: index, timeout: 15)
        } catch {
            // What the speaker had meanwhile, second by second (peak), and the node's last words.
            let peaks = try (0..<14).map { second in
                try Failsafe.peak(capture, switched + AudioCapture.frames(Double(second)), switched + AudioCapture.frames(Double(second + 1)))
            }
            print("silence mid-ring: no verdict; peaks per second since the switch \(peaks)\n"
                + harness.node.log.split(separator: "\n").suffix(15).joined(separator: "\n"))
            throw error
        }
        let seconds = fallback.at.timeIntervalSince(silent)
        print("silence mid-ring → fallback sounding \(Int(seconds * 1000)) ms: \(fallback.text)")
        #expect(fallback.json?["fallback"] == true && fallback.json?["cause"] == "silent", "\(fallback.text)")
        // The rule's 10 s at the player's output, plus what its ring still held of the station
        // (~0.5 s), the tone's confirmation and the message: 11.6 s measured.
        #expect(seconds >= 10 && seconds < 13, "10 s of digital silence at the player's output, plus what its ring held")
        try await harness.command("alarm/dismiss", "")
    }

    /// The preroll: the node's clock is moved to 6 s before the alarm's minute (inside its 30 s
    /// preroll; 3 s was too little for the first ring's connection while the whole stage ran side
    /// by side: 521 ms), the station answers only after 1.5 s, and the ring is still heard at the minute.
    /// Three rings in the stream stage; `PREROLL_RINGS=20` (at most 30) rings the issue's twenty.
    static var prerollRings: Int { ProcessInfo.processInfo.environment["PREROLL_RINGS"].flatMap { Int($0) }.map { min(max($0, 1), 30) } ?? 3 }

    @Test func anAlarmOnAStationIsHeardAtTheMinuteThanksToItsPreroll() async throws {
        let (station, proxy) = try await Self.station()
        defer { proxy.stop(); station.stop() }
        proxy.mode = .slowStart(1.5)
        let harness = try await AudioNodeHarness.started(device: "nc_preroll")
        defer { harness.shutdown() }
        try await harness.addStation(proxy.url("/jazz.mp3"))
        var latencies: [Double] = []
        for ring in 0..<Self.prerollRings {
            let boundary = NodeTime.minute(hour: 6, minute: 30 + ring)
            try await harness.node.setClock(to: boundary.addingTimeInterval(-40))
            let time = MinuteBoundary.clockTime(boundary)
            let added = try await harness.command("alarm/add", #"{"time": "\#(time)", "sound": "radio:jazz", "volume": 80, "ramp_seconds": 0}"#)
            let id = try #require(added.response["result"]?["id"]?.stringValue)
            let index = harness.client.messages.count
            try await harness.node.setClock(to: boundary.addingTimeInterval(-6))
            let verdict = try await Failsafe.verdict(harness, after: index, timeout: 10)
            let latency = harness.node.nodeTime(of: verdict.at).timeIntervalSince(boundary)
            latencies.append(latency)
            print("preroll ring \(ring): the minute → sounding \(Int(latency * 1000)) ms: \(verdict.text)")
            #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == false, "\(verdict.text)")
            #expect(latency >= 0 && latency <= 0.5, "the station's first sample at the speaker within 0.5 s of the minute")
            try await harness.command("alarm/dismiss", "")
            try await harness.command("alarm/delete", id)
        }
        print("preroll: \(latencies.count) rings, the minute → sounding \(latencies.map { Int($0 * 1000) }) ms (a station answering after 1.5 s)")
    }

    /// A timer ending on a station is prerolled as an alarm is: started for 60 s on the station
    /// that answers after 1.5 s, the node's clock moved to 6 s before its end, and the station's
    /// own samples are at the speaker (`sounding`, `source: timer`, no fallback) within 0.5 s of
    /// the end. The timer began between the command's sending and its answer: the latency is at
    /// most the time from the sending's end.
    @Test func aTimerEndingOnAStationIsHeardAtItsEndThanksToItsPreroll() async throws {
        let (station, proxy) = try await Self.station()
        defer { proxy.stop(); station.stop() }
        proxy.mode = .slowStart(1.5)
        let harness = try await AudioNodeHarness.started(device: "nc_timer_preroll")
        defer { harness.shutdown() }
        try await harness.addStation(proxy.url("/jazz.mp3"))
        try await harness.node.setClock(to: NodeTime.minute(hour: 6, minute: 30))
        let sent = harness.node.nodeTime(of: Date())
        try await harness.command("timer/start", #"{"seconds": 60, "sound": "radio:jazz"}"#)
        let answered = harness.node.nodeTime(of: Date())
        let index = harness.client.messages.count
        try await harness.node.setClock(to: answered.addingTimeInterval(54))
        let verdict = try await Failsafe.verdict(harness, after: index, timeout: 10)
        let heard = harness.node.nodeTime(of: verdict.at)
        let (least, most) = (heard.timeIntervalSince(answered) - 60, heard.timeIntervalSince(sent) - 60)
        print("timer preroll: its end → sounding \(Int(least * 1000))–\(Int(most * 1000)) ms: \(verdict.text)")
        #expect(verdict.json?["event"] == "sounding" && verdict.json?["fallback"] == false && verdict.json?["source"] == "timer", "\(verdict.text)")
        // The timer began between `sent` and `answered`: the end → sounding is at most `most`.
        #expect(most >= 0 && most <= 0.5, "the station's first sample at the speaker within 0.5 s of the timer's end")
    }
}
