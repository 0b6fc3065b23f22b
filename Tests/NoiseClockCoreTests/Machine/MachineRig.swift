@testable import NoiseClockCore

/// A `NodeMachine` driven by hand: inputs at instants the test chooses, state writes that
/// succeed unless told otherwise, and the effects read back as plain values.
struct MachineRig {
    static let catalog = SoundCatalog(
        noise: [.init(id: "brown", name: "Brown", category: "noise"), .init(id: "pink", name: "Pink", category: "noise")],
        alarm: [.init(id: "chime", name: "Chime", category: "tone")]
    )
    static let zone = ZoneRules(identifier: "Europe/Berlin", fixedOffset: 3600)
    static let topics = TopicScheme(base: "noiseclock", nodeID: "bed")

    var machine: NodeMachine
    var now = Instant(seconds: 1_795_241_070)  // 2026-11-21 06:04:30 UTC
    /// Every write the machine asked for, in order.
    var written: [StateWrite] = []

    /// A node whose state files hold `persisted` (by default, what a fresh node would write).
    init(discovery: Bool = true, persisted: [String: JSONValue]? = nil, observed: Bool = false, configurationURL: String? = nil) {
        let core = NodeCore(
            settings: NodeSettings(nodeID: "bed", locale: .en, zone: Self.zone), catalog: Self.catalog,
            documents: persisted ?? [:], now: now
        )
        machine = NodeMachine(
            core: core, topics: Self.topics,
            discovery: DiscoverySettings(enabled: discovery, prefix: "homeassistant", configurationURL: configurationURL),
            persisted: persisted ?? core.persistentState(), seed: 42, observed: observed
        )
    }

    /// Plans `input` at the current instant and adopts it; `failAt` makes that write (0-based) fail.
    @discardableResult
    mutating func step(_ input: NodeInput, failAt: Int? = nil) -> [NodeEffect] {
        let plan = machine.plan(input, now: now)
        var failure: WriteFailure?
        for (index, write) in plan.writes.enumerated() {
            if index == failAt {
                failure = WriteFailure(written: index, message: "disk full")
                break
            }
            written.append(write)
        }
        return machine.finish(plan, failure: failure)
    }

    mutating func command(_ suffix: String, _ payload: String, retain: Bool = false, failAt: Int? = nil) -> [NodeEffect] {
        step(.message(InboundMessage(topic: "noiseclock/bed/\(suffix)", payload: Array(payload.utf8), retain: retain)), failAt: failAt)
    }

    mutating func advance(seconds: Int64) { now = now.adding(seconds: seconds) }
}

extension [NodeEffect] {
    var publications: [OutboundMessage] {
        compactMap { if case .publish(let message) = $0 { message } else { nil } }
    }

    var topics: [String] { publications.map(\.topic) }

    func published(_ topic: String) -> [OutboundMessage] { publications.filter { $0.topic == topic } }

    func json(_ topic: String) -> JSONValue? {
        published(topic).last.flatMap { try? JSONParser().parse($0.payload) }
    }

    var logs: [LogRecord] { compactMap { if case .log(let record) = $0 { record } else { nil } } }

    var arms: [Instant] { compactMap { if case .arm(let instant) = $0 { instant } else { nil } } }

    var observations: [Observation] { compactMap { if case .observe(let observation) = $0 { observation } else { nil } } }

    var scenes: [AudioScene] { compactMap { if case .play(let scene) = $0 { scene } else { nil } } }

    /// Where in the list the first effect matching `match` is.
    func index(_ match: (NodeEffect) -> Bool) -> Int? { firstIndex(where: match) }
}
