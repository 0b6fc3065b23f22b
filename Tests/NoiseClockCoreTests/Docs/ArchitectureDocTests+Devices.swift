import Foundation
import NoiseClockCore
import Testing

/// docs/extending.md, "A device kind": the kinds the node drives are found by the type system
/// (`DeviceList.kinds`), each is one file, Sources/NoiseClockCore/Devices/<Kind>/<Kind>.swift,
/// that no other file extends, the doc's `devices` list names them, and nothing in Sources finds a
/// device by a cast (`as? Lamp`, `is Shaker`): it is reached as its own type (`devices.lamp`).
extension ArchitectureDocTests {
    static let deviceKinds = DeviceList.kinds.map { String(describing: $0) }

    @Test func eachDeviceKindIsOneFileUnderDevices() throws {
        let sources = try Self.swiftFiles(under: "Sources")
        #expect(Self.deviceKinds.count >= 2, "the lamp and the shaker at least: \(Self.deviceKinds)")
        var documented: [String: String] = [:]
        for kind in Self.deviceKinds {
            let path = "Sources/NoiseClockCore/Devices/\(kind)/\(kind).swift"
            documented[kind] = path
            guard let file = sources.first(where: { $0.path == path }) else {
                Issue.record("the device kind \(kind) is not in \(path)")
                continue
            }
            #expect(file.text.contains("extension \(kind): BridgedDevice"), "\(path) does not say `extension \(kind): BridgedDevice`")
            for (other, text) in sources where other != path && text.contains("extension \(kind)") {
                Issue.record("\(other) extends the device kind \(kind): its rules belong in \(path)")
            }
        }
        try Self.compare("devices", code: documented, sourceName: "device kind")
    }

    @Test func noDeviceIsFoundByACast() throws {
        let names = (Self.deviceKinds + ["Device", "BridgedDevice"]).joined(separator: "|")
        let cast = try Regex(#"\b(as[?!]|is)\s+(any\s+)?("# + names + #")\b"#)
        for (place, line) in try Self.sourceLines() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            if line.contains(cast) { Issue.record("\(place) finds a device by a cast: reach it as its own type (`devices.lamp`)") }
        }
    }
}
