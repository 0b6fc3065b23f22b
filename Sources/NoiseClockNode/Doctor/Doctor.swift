import NoiseClockCore

/// `noiseclock doctor`: what stands between this machine and an alarm that is heard, each check
/// with a one-line verdict and what to do (docs/doctor.md). It reuses the node's own parts: the
/// configuration loader, the readiness check's device probe and mixer reading, the clock's sync
/// word, the sound library's scan, the speech check, the web server's socket and the MQTT client.
/// It changes nothing: the device is opened and closed without a sample written (unless `play`),
/// the mixer is read, the broker sees a client that publishes nothing but the devices' state queries.
public enum Doctor {
    public static func run(configPath: String, environment: [String: String], play: Bool) async -> DoctorReport {
        var report = DoctorReport()
        let prepared: NodeApplication.Prepared
        do {
            prepared = try await NodeApplication.prepare(configPath: configPath, environment: environment)
        } catch {
            report.checks.append(DoctorCheck("configuration", .failed, error.description, advice: configurationAdvice(error, configPath: configPath)))
            return report
        }
        report.checks.append(configurationCheck(prepared))
        let configuration = prepared.configuration
        // The broker's checks wait on the network: they run while the local ones do.
        async let remote = brokerChecks(configuration)
        report.checks += audioChecks(configuration)
        report.checks += accessChecks(configuration, environment: environment)
        report.checks += clockChecks(prepared, environment: environment)
        report.checks.append(webPortCheck(configuration))
        report.checks.append(soundsCheck(configuration))
        report.checks.append(speechCheck(configuration, environment: environment))
        report.checks += await remote
        if play { report.checks.append(toneCheck(configuration)) }
        return report
    }

    static func configurationCheck(_ prepared: NodeApplication.Prepared) -> DoctorCheck {
        let file = prepared.configFile
        guard let warning = prepared.warnings.first else { return DoctorCheck("configuration", .ok, "\(file) is valid") }
        let more = prepared.warnings.count > 1 ? " (and \(prepared.warnings.count - 1) more)" : ""
        return DoctorCheck("configuration", .warning, "\(file) is valid, with a warning: \(warning.description)\(more)",
                           advice: "see the warning's key in docs/configuration.md")
    }
}
