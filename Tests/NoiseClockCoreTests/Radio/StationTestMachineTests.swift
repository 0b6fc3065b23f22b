@testable import NoiseClockCore
import Testing

/// `~/station/test` as the machine decides it: a station's id or `{"url"}` becomes a probe effect,
/// answered with the probe's figures or `stream_unavailable` with its cause and the request id;
/// an unknown id or a bad address is refused at once; at most 4 probes at once.
@Suite struct StationTestMachineTests {
    static func probes(_ effects: [NodeEffect]) -> [StationProbeRequest] {
        effects.compactMap { if case .probeStation(let request) = $0 { request } else { nil } }
    }

    static func rig() -> MachineRig {
        var rig = MachineRig()
        rig.step(.connected)
        _ = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz.mp3"}"#)
        return rig
    }

    @Test func aStationIsProbedAndTheAnswerCarriesTheFigures() throws {
        var rig = Self.rig()
        let effects = rig.command("station/test", #"{"id": "jazz", "request_id": 7}"#)
        let request = try #require(Self.probes(effects).first)
        #expect(request.url == "http://radio.example:8000/jazz.mp3")
        #expect(effects.published("noiseclock/bed/response").isEmpty, "answered when the probe is back")
        let figures: JSONValue = [
            "first_audio_ms": 347, "codec": "mp3", "bitrate_kbps": .null, "sample_rate": 44100, "channels": 1, "title": "So What",
        ]
        let answer = try #require(rig.step(.stationProbed(StationProbeOutcome(id: request.id, result: .success(figures))))
            .json("noiseclock/bed/response"))
        #expect(answer["ok"] == true && answer["request_id"] == 7 && answer["result"] == figures && answer["command"] == "station/test")
        // A second answer for the same probe is nobody's.
        #expect(rig.step(.stationProbed(StationProbeOutcome(id: request.id, result: .success(figures)))).published("noiseclock/bed/response").isEmpty)
    }

    @Test(arguments: ["dns", "refused", "timeout", "http_404", "tls", "no_audio", "undecodable", "silent"])
    func aFailureIsStreamUnavailableWithItsCause(cause: String) throws {
        var rig = Self.rig()
        let request = try #require(Self.probes(rig.command("station/test", #"{"url": "https://radio.example/live.m3u8"}"#)).first)
        #expect(request.url == "https://radio.example/live.m3u8")
        let outcome = StationProbeOutcome(id: request.id, result: .failure(StationProbeFailure(cause: cause)))
        let answer = try #require(rig.step(.stationProbed(outcome)).json("noiseclock/bed/response"))
        #expect(answer["ok"] == false && answer["error"]?["code"] == "stream_unavailable" && answer["error"]?["cause"] == .string(cause))
    }

    @Test func badRequestsAreRefusedAtOnceAndProbesAreBounded() throws {
        var rig = Self.rig()
        let refusals = [
            ("nope", "not_found"), (#"{"url": "ftp://x/a"}"#, "invalid_field"),
            (#"{"url": "http://x/a", "b": 1}"#, "invalid_field"), ("", "invalid_field"),
        ]
        for (payload, code) in refusals {
            let effects = rig.command("station/test", payload)
            #expect(Self.probes(effects).isEmpty)
            #expect(effects.json("noiseclock/bed/response")?["error"]?["code"] == .string(code), "\(payload)")
        }
        for _ in 0..<4 { #expect(Self.probes(rig.command("station/test", "jazz")).count == 1) }
        #expect(rig.command("station/test", "jazz").json("noiseclock/bed/response")?["error"]?["code"] == "limit_exceeded")
    }

    /// At most 10 probes start in any minute, whoever asks: the 11th is `rate_limited` at once and
    /// starts nothing (a broker client probed 401 loopback ports in 3.8 s), and a minute after the
    /// first one more may start.
    @Test func atMostTenProbesAMinute() throws {
        var rig = Self.rig()
        for index in 0..<10 {
            let request = try #require(Self.probes(rig.command("station/test", "jazz")).first, "probe \(index)")
            _ = rig.step(.stationProbed(StationProbeOutcome(id: request.id, result: .failure(StationProbeFailure(cause: "refused")))))
            rig.advance(seconds: 5)
        }
        let effects = rig.command("station/test", #"{"url": "http://127.0.0.1:22/", "request_id": 11}"#)
        #expect(Self.probes(effects).isEmpty)
        let answer = try #require(effects.json("noiseclock/bed/response"))
        #expect(answer["error"]?["code"] == "rate_limited" && answer["request_id"] == 11, "\(answer)")
        rig.advance(seconds: 15)
        #expect(Self.probes(rig.command("station/test", "jazz")).count == 1, "65 s after the first")
    }
}
