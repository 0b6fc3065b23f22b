import Testing
@testable import NoiseClockAudio

/// The stream content rules of mqtt-api v1.4 ("Streams are bounded") on their own, fast: the
/// format check, the title gate, ICY intervals outside 256-65536. The same rules against a hostile
/// server through the real player: HostileFormatTests (`make stream-test`).
struct StreamFormatLimitsTests {
    /// `check.admit`, outside `#expect` (which cannot mutate).
    func admit(_ check: inout StreamFormatCheck, frames: Int, rate: Int, channels: Int) -> Bool {
        check.admit(frames: frames, rate: rate, channels: channels)
    }

    @Test func formatsOutOfBoundsAreBreaches() {
        for (rate, channels) in [(1, 1), (7999, 2), (384_001, 2), (655_350, 1), (0, 2), (44_100, 0), (44_100, 9), (48_000, 255)] {
            var check = StreamFormatCheck()
            #expect(!admit(&check, frames: 1152, rate: rate, channels: channels), "\(rate) Hz \(channels) ch")
            #expect(check.breach != nil)
        }
        for (rate, channels) in [(8000, 1), (384_000, 8)] {
            var check = StreamFormatCheck()
            #expect(admit(&check, frames: 4096, rate: rate, channels: channels), "the bounds are in: \(rate) Hz \(channels) ch")
        }
    }

    /// One change a second of the stream's audio: a chained Ogg's next track, HE-AAC's first frames.
    @Test func aChangeIsFollowedOnceASecondNotEveryFrame() {
        var check = StreamFormatCheck()
        // 44.1 kHz for 1.5 s, then 48 kHz: the first change is fine.
        for _ in 0..<57 { #expect(admit(&check, frames: 1152, rate: 44_100, channels: 2)) }
        #expect(admit(&check, frames: 1152, rate: 48_000, channels: 2))
        // A second change 1.2 s of audio later is fine too; a third 0.5 s after it is not.
        for _ in 0..<50 { #expect(admit(&check, frames: 1152, rate: 48_000, channels: 2)) }
        #expect(admit(&check, frames: 1152, rate: 48_000, channels: 1))
        for _ in 0..<20 { #expect(admit(&check, frames: 1152, rate: 48_000, channels: 1)) }
        #expect(!admit(&check, frames: 1152, rate: 22_050, channels: 1))
        #expect(!admit(&check, frames: 1152, rate: 22_050, channels: 1), "once breached, the stream is over")

        // Every frame a new rate (the MP3 and FLAC reproductions): the second change ends it.
        var flipping = StreamFormatCheck()
        #expect(admit(&flipping, frames: 1152, rate: 44_100, channels: 1))
        #expect(admit(&flipping, frames: 1152, rate: 32_000, channels: 1))
        #expect(!admit(&flipping, frames: 1152, rate: 22_050, channels: 1))
    }

    /// Titles: at most one a second, the latest winning, the same one again no news, each cut to
    /// 256 Unicode scalars (not graphemes). The clock is the test's.
    @Test func theTitleGateLetsOneASecondTheLatestWinning() {
        var now = 100.0
        var sent: [String?] = []
        let gate = StationTitleGate(now: { now }, deliver: { sent.append($0) })
        gate.offer("A")
        gate.offer("B")
        gate.offer("C")
        #expect(sent == ["A"])
        now += 0.5
        gate.tick()
        #expect(sent == ["A"])
        now += 0.5
        gate.tick()
        #expect(sent == ["A", "C"])
        now += 2
        gate.offer("C")
        gate.tick()
        #expect(sent == ["A", "C"], "the same title again is no news")
        gate.offer(nil)
        #expect(sent == ["A", "C", nil])
        now += 1
        // "e" and a combining acute: 600 scalars, 300 graphemes.
        gate.offer(String(repeating: "e\u{301}", count: 300))
        #expect(sent.last??.unicodeScalars.count == 256)
    }

    /// `icy-metaint` outside 256-65536: the blocks are still cut out of the audio, but no title is read.
    @Test(arguments: [1, 16, 255, 65537])
    func icyIntervalsOutsideTheRangeGiveNoTitles(_ interval: Int) {
        let (body, audio) = IcyMetadataReaderTests.body(interval: interval, texts: ["StreamTitle='One';", "StreamTitle='Two';", nil])
        let out = IcyMetadataReaderTests.run(body, interval: interval, pieces: 7)
        #expect(out.audio == audio)
        #expect(out.titles.isEmpty)
        let titled = IcyMetadataReaderTests.body(interval: 256, texts: ["StreamTitle='One';"]).body
        let inRange = IcyMetadataReaderTests.run(titled, interval: 256, pieces: 7)
        #expect(inRange.titles == ["One"])
    }
}
