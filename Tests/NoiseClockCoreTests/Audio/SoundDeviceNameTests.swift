import NoiseClockCore
import Testing

/// A sound device is a name, never a definition (issue 37; http-api.md v1.4, "Tighter values").
@Suite struct SoundDeviceNameTests {
    @Test(arguments: [
        "default", "null", "hw:0,0", "hw:1", "plughw:CARD=USB,DEV=0", "sysdefault:CARD=PCH", "dmix:CARD=0", "front:CARD=x,DEV=0",
        "hdmi:CARD=vc4hdmi0,DEV=0", "iec958:CARD=Intel,DEV=0", "default:CARD=Headphones", "null_noiseclock_test", "bluealsa", "my.pcm-2",
    ])
    func namesPass(_ name: String) {
        #expect(SoundDeviceName.problem(name) == nil, "\(name)")
    }

    @Test(arguments: [
        "file:'/tmp/victim'", "file:/tmp/victim", "file:victim.raw", "tee:'/tmp/x',raw", "{type file slave.pcm null file /tmp/x}",
        "plug:file:'/tmp/x'", "plug:{type file}", "hw:0,0:'x'", "hw:", "hw:0 0", "hw:/dev/snd", "default'", "\"default\"",
        "pipe:|sh", "dmix:'x'", "hw:0,0\u{0}", "de\u{1B}fault", "", String(repeating: "a", count: 257), "shm:x", "lfloat:x",
    ])
    func definitionsAndOddTextAreRefused(_ name: String) {
        #expect(SoundDeviceName.problem(name) != nil, "\(name)")
    }

    @Test func theMessageShowsNoControlCharacter() throws {
        let message = try #require(SoundDeviceName.problem("file:'/tmp/\u{1B}[2J'"))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
        #expect(message.contains("never writes a file"))
    }
}
