import Logging
import NoiseClockCore

extension NodeApplication {
    /// How a run ended.
    public enum Ending: Sendable, Equatable {
        /// Stopped (SIGTERM, SIGINT): the process exits.
        case stopped
        /// Stopped to start again (`safe_mode/exit`): `NodeRestart` starts the node again.
        case restart
    }

    /// The test suite's crash switch (docs/configuration.md), test-only as the test clock is:
    /// `1` makes the node crash at start, after its start is counted, by a Swift runtime trap
    /// (as an overflow would), so a test can see the crashed starts lead to safe mode.
    public static let testCrashKey = "NOISECLOCK_TEST_CRASH_AT_START"

    static func crashIfAsked(_ environment: [String: String], logger: Logger) {
        guard environment[testCrashKey] == "1" else { return }
        logger.critical("crashing at start on purpose (\(testCrashKey))")
        fatalError("test crash switch (\(testCrashKey))")
    }

    /// Safe mode (mqtt-api v1.4): every optional part off — the sounds folder (built-in sounds
    /// only), speech, the lamp and the shaker. Stations and the readiness probes are off in the
    /// core (`NodeSettings.safeMode`). MQTT, buttons, Home Assistant and the web app stay.
    static func safeModeConfiguration(_ configuration: NodeConfiguration) -> NodeConfiguration {
        var safe = configuration
        safe.audio.soundsDirectory = nil
        safe.speech.enabled = false
        safe.devices = DeviceSettings()
        return safe
    }
}
