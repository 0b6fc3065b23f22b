import NoiseClockCore

/// One input is `topic-suffix \n payload` (no newline: the whole input is the payload of a topic
/// picked by its first byte). It goes through `CommandMessage.parse` and `NodeCore.handle` on a
/// core that already holds alarms, a style and playing noise, at a fixed instant in a zone with
/// DST. Besides "no crash", it checks the contract's promises and traps when one breaks:
/// a refused command changes nothing, every response and state file is JSON our own parser
/// reads back, and state files restore to the same state.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let (suffix, payload) = FuzzFixture.split(bytes)
    var core = FuzzFixture.core
    let now = FuzzFixture.now
    let before = FuzzFixture.snapshot(core, now: now)

    var outbox: [Publication] = []
    var effects: [FeatureEffect] = []
    let response: Response
    switch CommandMessage.parse(topic: suffix, payload: payload) {
    case .refused(let refusal): response = refusal
    case .command(let message): response = core.handle(message, now: now, outbox: &outbox, effects: &effects)
    }
    // Speech is decided by the core and said by the machine: a text `say` asks to say is within
    // its bounds and free of control characters.
    for case .speak(let text, _) in effects where CommandTopic(rawValue: suffix) == .voice(.say) {
        precondition(SpeechCommand.textLength.measure(text) != nil, "say accepted \(text.unicodeScalars.count) scalars")
        precondition(!text.unicodeScalars.contains { $0.properties.generalCategory == .control }, "say kept a control character")
    }

    let after = FuzzFixture.snapshot(core, now: now)
    if !response.ok {
        precondition(after == before, "refused \(suffix) changed the state")
        precondition(outbox.isEmpty, "refused \(suffix) published events")
        precondition(effects.isEmpty, "refused \(suffix) asked for effects")
    }
    FuzzFixture.expectReadable(response.json)
    for publication in outbox { _ = publication.body.bytes }

    // State files: readable JSON that restores to the same files.
    let files = core.persistentState()
    for document in files.values { FuzzFixture.expectReadable(document) }
    let restored = NodeCore(settings: core.settings, catalog: core.catalog, documents: files, now: now)
    precondition(FuzzFixture.files(restored) == FuzzFixture.files(core), "state files do not restore to the same state")

    // Time goes on: a day later (fires, timeouts, sleep timers) must not trap either.
    var later: [Publication] = []
    core.advance(to: now.adding(seconds: 86_400), outbox: &later)
    _ = core.nextDeadline(after: now.adding(seconds: 86_400))
    _ = core.audioScene(now: now.adding(seconds: 86_400))
    return 0
}

enum FuzzFixture {
    /// 2026-03-29 00:30 UTC: an hour before Europe/Berlin springs forward.
    static let now = Instant(seconds: 1_774_744_200)

    static let zone = try! ZoneRules(identifier: "Europe/Berlin", posix: "CET-1CEST,M3.5.0,M10.5.0/3")

    static let catalog = SoundCatalog(
        noise: ["white", "pink", "brown", "rain"].map { SoundCatalog.Entry(id: $0, name: $0, category: "noise") },
        alarm: ["digital", "classic", "beep"].map { SoundCatalog.Entry(id: $0, name: $0, category: "tone") }
    )

    /// Two alarms (one repeating across the DST night), a non-default style, brown noise playing.
    static let core: NodeCore = {
        let alarms = """
            {"version": 1, "id_counter": 2, "ring": null, "alarms": [
              {"id": "a1", "time": "02:30", "label": "Gap", "repeat": ["sun", "mon"], "sound": "classic", "pending": null},
              {"id": "b2", "time": "07:00", "label": "Work", "enabled": false, "sound": "none"}]}
            """
        let documents: [String: JSONValue] = [
            NodeCore.StateFile.alarms: try! JSONParser().parse(alarms),
            NodeCore.StateFile.style: try! JSONParser().parse(#"{"version": 1, "style": {"show_seconds": true, "use_24_hour": false}}"#),
            NodeCore.StateFile.noise: try! JSONParser().parse(#"{"version": 1, "playing": true, "sound": "brown", "volume": 40}"#),
        ]
        var core = NodeCore(settings: NodeSettings(nodeID: "fuzz", locale: .en, zone: zone), catalog: catalog, documents: documents, now: now)
        var outbox: [Publication] = []
        core.advance(to: now, outbox: &outbox)
        return core
    }()

    static let topics = CommandTopic.allCases.map(\.rawValue)

    static func split(_ bytes: [UInt8]) -> (String, [UInt8]) {
        if let newline = bytes.firstIndex(of: 0x0A) {
            return (String(decoding: bytes[..<newline], as: UTF8.self), Array(bytes[(newline + 1)...]))
        }
        let topic = topics[Int(bytes.first ?? 0) % topics.count]
        return (topic, Array(bytes.dropFirst()))
    }

    struct Snapshot: Equatable {
        var files: [String: String]
        var retained: [String: [UInt8]]
        var deadline: Instant
    }

    static func files(_ core: NodeCore) -> [String: String] { core.persistentState().mapValues(\.serialized) }

    static func snapshot(_ core: NodeCore, now: Instant) -> Snapshot {
        var retained: [String: [UInt8]] = [:]
        for publication in core.retainedState(now: now) { retained[publication.topic] = publication.body.bytes }
        return Snapshot(files: files(core), retained: retained, deadline: core.nextDeadline(after: now))
    }

    /// What the node publishes must be JSON that a strict parser (ours) reads back unchanged.
    static func expectReadable(_ value: JSONValue) {
        let text = value.serialized
        guard let parsed = try? JSONParser(maxDepth: 64).parse(text) else { preconditionFailure("unreadable JSON: \(text.prefix(200))") }
        precondition(parsed.serialized == text, "JSON does not round-trip: \(text.prefix(200))")
    }
}

/// SwiftPM links an executable target with `main` aliased to `FuzzCommand_main`, which would hide
/// libFuzzer's own `main`; so this is that function, and it hands over to libFuzzer's driver.
@_cdecl("FuzzCommand_main")
func fuzzCommandMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzCommand)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// libFuzzer's C symbol, named as libFuzzer names it.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
