@testable import NoiseClockCore

extension ProgrammeHarness {
    /// The commands to devices (`Publication.device`) in the outbox so far, in order; they leave it.
    mutating func takeDeviceCommands() -> [DeviceCommand] {
        defer { outbox.removeAll { $0.absolute } }
        return outbox.compactMap(\.deviceCommand)
    }
}
