/// What `NodeConfiguration.load` returns: the configuration and the warnings to log once logging is up.
public struct LoadedConfiguration: Sendable {
    public var configuration: NodeConfiguration
    public var warnings: [ConfigurationWarning]

    public init(configuration: NodeConfiguration, warnings: [ConfigurationWarning]) {
        self.configuration = configuration
        self.warnings = warnings
    }
}
