// The suites' shared rigs (broker, processes, ports, signal analysis, Icecast), seen from every
// file of this target without an import in each.
@_exported import NoiseClockTestSupport
