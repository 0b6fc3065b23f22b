import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads

/// `NodeEffect.probeStation`: each probe on a thread of its own (it blocks on the network and the
/// decoder for up to 8 s; the machine allows 4 at once), answered into the loop's inbox. The
/// stream libraries are opened by the first probe, not before.
struct StationProber: Sendable {
    let inbox: NodeInbox
    let userAgent: String
    /// `stream.ca_file`.
    var caFile: String? = nil
    /// `stream.allow_local_addresses`.
    var allowsLocalAddresses = false

    func probe(_ request: StationProbeRequest) {
        let thread = DedicatedThread(name: "station-probe")
        let inbox = inbox, userAgent = userAgent, caFile = caFile, allowsLocal = allowsLocalAddresses
        do {
            try thread.start {
                let result = StationProbe(url: request.url, userAgent: userAgent, caFile: caFile, allowsLocalAddresses: allowsLocal).run()
                    .map(\.json).mapError { StationProbeFailure(cause: $0.cause) }
                _ = inbox.send(.stationProbed(StationProbeOutcome(id: request.id, result: result)))
            }
            thread.detach()
        } catch {
            _ = inbox.send(.stationProbed(StationProbeOutcome(id: request.id, result: .failure(StationProbeFailure(cause: "no_audio")))))
        }
    }
}
