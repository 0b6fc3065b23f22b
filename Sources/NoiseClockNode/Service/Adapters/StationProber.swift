import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads

/// `NodeEffect.probeStation`: each probe on a thread of its own (it blocks on the network and the
/// decoder for up to 8 s; the machine allows 4 at once), answered into the loop's inbox. The
/// stream libraries are opened by the first probe, not before. The threads are `threads`', joined
/// by `JobThreadsService` at shutdown.
struct StationProber: Sendable {
    let inbox: NodeInbox
    let threads: JobThreads
    /// Cuts the running probes' sockets when `threads` stop (`StationProber.threads(cutter:)`).
    let cutter: StreamCutter
    let userAgent: String
    /// `stream.ca_file`.
    var caFile: String? = nil
    /// `stream.allow_local_addresses`.
    var allowsLocalAddresses = false

    func probe(_ request: StationProbeRequest) {
        let inbox = inbox, userAgent = userAgent, caFile = caFile, allowsLocal = allowsLocalAddresses, cutter = cutter
        // No thread (the process is out of them, or the node is stopping): the probe fails at once.
        let started = (try? threads.start {
            let result = StationProbe(url: request.url, userAgent: userAgent, caFile: caFile, allowsLocalAddresses: allowsLocal)
                .run(cutBy: cutter)
                .map(\.json).mapError { StationProbeFailure(cause: $0.cause) }
            _ = inbox.send(.stationProbed(StationProbeOutcome(id: request.id, result: result)))
        }) ?? false
        if !started {
            _ = inbox.send(.stationProbed(StationProbeOutcome(id: request.id, result: .failure(StationProbeFailure(cause: "no_audio")))))
        }
    }

    /// The probes' threads: their stop cuts the probes' sockets before joining them, so the node's
    /// shutdown does not wait for a probe's 8 s.
    static func threads(cutter: StreamCutter) -> JobThreads {
        JobThreads(name: "station-probe") { cutter.cut() }
    }
}
