import Testing

@testable import NoiseClockCore

/// mqtt-api v1.4, Addresses: a station whose host is a loopback or link-local literal (or
/// `localhost`) is refused at `station/add` and `station/update` with `invalid_field` unless
/// `stream.allow_local_addresses`; other hosts are added as before.
struct StationHostTests {
    @Test(arguments: [
        "http://127.0.0.1:8000/jazz.mp3", "http://127.1.2.3/x", "https://localhost/live", "http://LOCALHOST:80/",
        "http://a.localhost/", "http://[::1]:8000/x", "http://[fe80::1]/x", "http://[FEBF::2]/", "http://169.254.169.254/latest",
        "http://0.0.0.0:8000/", "http://[::ffff:127.0.0.1]/x", "http://user:pw@127.0.0.1/x", "http://[::]/",
    ])
    func aLocalHostIsRefusedAtAddAndUpdate(_ url: String) throws {
        #expect(StationHost.isLocal(url), "\(StationHost.host(of: url))")
        var rig = MachineRig()
        let refused = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "\#(url)"}"#)
        let error = try #require(refused.json("noiseclock/bed/response")?["error"])
        #expect(error["code"] == "invalid_field" && error["field"] == "url", "\(error)")
        #expect(rig.machine.core.stations.stations.isEmpty)
        #expect(rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example/jazz.mp3"}"#)
            .json("noiseclock/bed/response")?["ok"] == true)
        let moved = rig.command("station/update", #"{"id": "jazz", "url": "\#(url)"}"#)
        #expect(moved.json("noiseclock/bed/response")?["error"]?["code"] == "invalid_field")
        #expect(rig.machine.core.stations.station("jazz")?.url == "http://radio.example/jazz.mp3")
    }

    @Test(arguments: ["http://radio.example/jazz.mp3", "http://10.0.0.5:8000/", "http://192.168.1.2/x", "http://[2001:db8::1]/x",
                      "http://128.0.0.1/", "http://169.253.1.1/", "http://localhost.example.com/", "http://1270.0.0.1/"])
    func otherHostsAreNotLocal(_ url: String) {
        #expect(!StationHost.isLocal(url), "\(StationHost.host(of: url))")
    }

    @Test func allowedLocalAddressesAddALoopbackStation() throws {
        var rig = MachineRig()
        rig.machine.core.settings.stream.allowsLocalAddresses = true
        let added = rig.command("station/add", #"{"id": "jazz", "name": "Jazz", "url": "http://127.0.0.1:8000/jazz.mp3"}"#)
        #expect(added.json("noiseclock/bed/response")?["ok"] == true)
    }
}
