@testable import NoiseClockNode
import Testing

/// The doctor's advice for a configuration that does not load names what to fix: the path given
/// to `--config`, the environment variable that set the value, or the key in the file.
@Suite struct DoctorAdviceTests {
    @Test func aMissingFileIsAboutThePathNotAKey() {
        let error = ConfigurationError(key: "/nonexistent.yaml", message: "cannot read the configuration file: No such file or directory")
        let advice = Doctor.configurationAdvice(error, configPath: "/nonexistent.yaml")
        #expect(advice.contains("--config") && !advice.contains("fix that key"), "\(advice)")
    }

    @Test func aValueFromTheEnvironmentNamesTheVariable() {
        let error = ConfigurationError(key: "timezone", message: "unknown time zone \"Mars/Base\" (from NOISECLOCK_TIMEZONE)")
        let advice = Doctor.configurationAdvice(error, configPath: "config/noiseclock.yaml")
        #expect(advice.hasPrefix("fix or unset NOISECLOCK_TIMEZONE"), "\(advice)")
    }

    @Test func aValueFromTheFileNamesTheKeyAndTheFile() {
        let error = ConfigurationError(key: "mqtt.port", message: "must be between 1 and 65535, got 99999")
        let advice = Doctor.configurationAdvice(error, configPath: "config/noiseclock.yaml")
        #expect(advice.hasPrefix("fix mqtt.port in config/noiseclock.yaml"), "\(advice)")
        #expect(Doctor.environmentVariable(in: "got 5 (from the file)") == nil)
    }
}
