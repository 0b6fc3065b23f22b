import Foundation
import NoiseClockCore
@testable import NoiseClockNode
import Testing

/// Sleep radio through a 30 s outage (issue 29's "Done when"), on the real node with a live Icecast
/// station behind the tests' `FaultProxy`: the station plays as the noise; the proxy cuts it and
/// refuses for 30 s; within 11 s of the station's last sample at the speaker brown noise fades in
/// (`stream.fallback_noise`), `~/noise` saying `error`; when the station is back the node finds it
/// (its back-off: 1 s doubling to 5 s) and fades back to it within 10 s, `error` cleared. No step
/// of the capture across the drop and both fades is larger than the steady sounds' own (the loop
/// seam test's measure), beyond the output's dither. The outage is real time (the player's
/// back-off runs on the monotonic clock): ~36 s, side by side with the stage's other tests.
@Suite(.enabled(if: StreamStage.enabled, "run by scripts/stream-tests.sh (make stream-test)"))
struct SleepRadioNodeTests {
    static let volume = 60
    /// TPDF dither moves a sample by up to ±1 LSB: a step by up to 2 LSB more, and a little room.
    static let ditherSteps: Float = 3.0 / 32768

    static func rms(_ samples: ArraySlice<Float>) -> Float {
        (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
    }

    static func largestStep(_ samples: ArraySlice<Float>) -> Float {
        var largest: Float = 0
        var previous = samples.first ?? 0
        for sample in samples.dropFirst() {
            largest = max(largest, abs(sample - previous))
            previous = sample
        }
        return largest
    }

    @Test func aSleepRadioFadesToBrownWhileItsStationIsDownAndBackWhenItReturns() async throws {
        let (station, proxy) = try await StreamRingNodeTests.station()
        defer { proxy.stop(); station.stop() }
        let harness = try await AudioNodeHarness.started(device: "nc_sleep_radio")
        defer { harness.shutdown() }
        let capture = harness.capture
        try await harness.addStation(proxy.url("/jazz.mp3"))
        let start = try await harness.command("noise/set", #"{"playing": true, "sound": "radio:jazz", "volume": \#(Self.volume)}"#).mark
        try await capture.waitForFrames(start + AudioCapture.frames(4))
        let pitch = try StationPlayerNodeTests.pitch(capture, from: start + AudioCapture.frames(3), seconds: 1)
        #expect(abs(pitch - 440) <= 5, "the station plays as the noise: \(pitch)")
        let stationStep = Self.largestStep(try capture.read((start + AudioCapture.frames(2.5))..<capture.frames).left[...])

        // The outage: cut and refused for 30 s.
        let cutIndex = harness.client.messages.count
        let cutFrame = capture.frames
        let cut = Date()
        proxy.mode = .refuse
        let down = try await harness.client.waitFor("\(harness.root)/noise", timeout: 20, after: cutIndex, where: {
            $0.json?["error"]?.stringValue != nil
        })
        print("sleep radio: cut → ~/noise error \(Int(down.at.timeIntervalSince(cut) * 1000)) ms: \(down.json?["error"] ?? .null)")
        #expect(down.json?["error"]?.stringValue?.contains("playing brown") == true, "\(down.text)")
        #expect(down.json?["sound"] == "radio:jazz" && down.json?["playing"] == true)
        try await capture.waitForFrames(cutFrame + AudioCapture.frames(16))
        let outage = try capture.read(cutFrame..<(cutFrame + AudioCapture.frames(16))).left
        let window = AudioCapture.frames(0.01)
        // The station's last sample at the speaker: the first 10 ms without it (dither is ±1 LSB).
        let end = try #require(stride(from: 0, to: outage.count - window, by: window).first { at in
            outage[at..<(at + window)].allSatisfy { abs($0) < 4.0 / 32768 }
        })
        let brownRMS = Float(AudioNodeHarness.expectedRMS("brown", volume: Self.volume))
        let brownWindow = AudioCapture.frames(0.1)
        let brown = try #require(stride(from: end, to: outage.count - brownWindow, by: window).first { at in
            Self.rms(outage[at..<(at + brownWindow)]) > 0.1 * brownRMS
        })
        let toBrown = Double(brown - end) / Double(AudioCapture.sampleRate)
        print("sleep radio: the station's last sample \(Int(Double(end) / 48)) ms after the cut; brown heard \(Int(toBrown * 1000)) ms after it")
        #expect(toBrown <= 11, "brown within 11 s of the station's last sample")
        #expect(toBrown >= 9.5, "not before 10 s without audio")
        let steadyBrown = outage[(brown + AudioCapture.frames(2.5))...]
        #expect(abs(Self.rms(steadyBrown) / brownRMS - 1) < 0.3, "brown at the noise's level: \(Self.rms(steadyBrown)) vs \(brownRMS)")

        // Back after 30 s: the player's next attempt finds it, and the noise fades back to it.
        try await pause(max(0, 30 - Date().timeIntervalSince(cut)))
        let backIndex = harness.client.messages.count
        let returned = Date()
        proxy.mode = .forward
        let back = try await harness.client.waitFor("\(harness.root)/noise", timeout: 40, after: backIndex, where: {
            $0.json?["error"] == .null
        })
        let toStation = back.at.timeIntervalSince(returned)
        print("sleep radio: the station back → ~/noise error cleared \(Int(toStation * 1000)) ms (the fade back to it starts)")
        // Issue 39's bound: the player tries at least every 5 s (its back-off's cap), so the station is
        // back within 10 s of its return however long the outage was (the old 5 s held only because
        // a 30 s outage ended a second before the fifth retry; a 32 s one waited until about 61 s).
        #expect(toStation <= 10, "back to the station within 10 s of its return")
        let backFrame = capture.frames
        try await capture.waitForFrames(backFrame + AudioCapture.frames(3))
        let after = try StationPlayerNodeTests.pitch(capture, from: backFrame + AudioCapture.frames(2.2), seconds: 0.8)
        #expect(abs(after - 440) <= 5, "the station again, brown faded out: \(after)")

        // No step across the drop, the fade to brown and the fade back larger than the steady sounds' own.
        let all = try capture.read(cutFrame..<capture.frames).left
        let brownStep = Self.largestStep(all[(brown + AudioCapture.frames(2.5))..<(backFrame - cutFrame - AudioCapture.frames(3))])
        let transitions = max(Self.largestStep(all[0..<(brown + AudioCapture.frames(2.5))]),
                              Self.largestStep(all[(backFrame - cutFrame - AudioCapture.frames(3))...]))
        print("sleep radio: largest step across the transitions \(transitions * 32768) LSB; "
            + "steady station \(stationStep * 32768), brown \(brownStep * 32768)")
        #expect(transitions <= max(stationStep, brownStep) + Self.ditherSteps, "no step louder than the steady level")
        try await harness.command("noise/set", "OFF")
    }
}
