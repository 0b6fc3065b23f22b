import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads
import NoiseClockWeb
import ServiceLifecycle
import Synchronization

/// The settings page's Sound section (http-api.md v1.3): `GET /api/audio/devices` (the machine's
/// playback PCMs, the current one marked) and `POST /api/audio/test` (a 1 s chime at volume 30 on
/// a device, nothing saved). The chime on the engine's own device plays through the engine, over
/// whatever plays (the engine holds the device: a second open would find it busy); on another it
/// opens that one on this service's thread. Either way the answer comes once frames reached the
/// device, straight to the web server (`WebServer.reply`): the machine has nothing to decide here.
final class AudioDesk: Service, Sendable {
    private let engine: AudioEngine?
    private let sampleRate: Int
    /// The configured device when there is no engine (no sound catalog): the test's default.
    private let configured: Mutex<String>
    private let server = Mutex<WebServer?>(nil)
    private let thread = WorkThread(name: "audio-test")

    init(engine: AudioEngine?, device: String, sampleRate: Int) {
        self.engine = engine
        self.sampleRate = sampleRate
        configured = Mutex(device)
    }

    /// The server the answers go to (made after this desk: it is the server's backend's).
    func attach(_ server: WebServer) { self.server.withLock { $0 = server } }

    /// The device the node plays on now.
    var device: String { engine?.device ?? configured.withLock { $0 } }

    /// `audio.device` saved in the web app: the engine moves to it (its thread closes the old PCM
    /// and opens the new one; whatever plays goes on there).
    func use(_ device: String) {
        configured.withLock { $0 = device }
        engine?.changeDevice(device)
    }

    func run() async throws {
        try thread.start()
        try? await gracefulShutdown()
        thread.stop()
    }

    /// `[{"name", "description", "current"}]`: ALSA's playback hints, and the current device
    /// (first, if ALSA does not list it: a name of the configuration's own, or a missing one).
    func devices() -> HTTPResponse {
        let current = device
        var listed = AudioDeviceList.playback()
        if !listed.contains(where: { $0.name == current }) { listed.insert(.init(name: current, description: nil), at: 0) }
        let body = JSONValue.array(listed.map { device in
            .object(JSONObject([("name", .string(device.name)), ("description", .optional(device.description)),
                                ("current", .bool(device.name == current))]))
        })
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body.bytes)
    }

    /// `{"device"?: name}` checked on the server's thread: a refusal (nil: fine, `test` it).
    static func refusal(_ request: WebCommandRequest) -> HTTPResponse? {
        if case .failure(let error) = requested(request.body) { return request.answer(.failure(error)) }
        return nil
    }

    /// Plays the chime for the web request `id`; the answer goes to the server when it has played.
    func test(_ request: WebCommandRequest, id: UInt64) {
        guard case .success(let asked) = Self.requested(request.body) else { return }
        let device = asked ?? self.device
        if let engine, device == engine.device {
            engine.playChime(AudioChime.samples(sampleRate: sampleRate), volume: AudioChime.volume) { [self] outcome in
                // On the audio thread: the mixer is read on this desk's thread, never there.
                thread.submit { [self] in
                    switch outcome {
                    case .success(let card):
                        let played = AudioChime.Played(frames: Int(AudioChime.seconds * Double(sampleRate)),
                                                       mixer: AudioDeviceProbe.mixer(device: device, card: card))
                        answer(request, id, device: device, .success(played))
                    case .failure(let failure): answer(request, id, device: device, .failure(failure))
                    }
                }
            }
            return
        }
        let queued = thread.submit { [self] in
            do throws(ChimeFailure) {
                answer(request, id, device: device, .success(try AudioChime.play(device: device, sampleRate: sampleRate)))
            } catch {
                answer(request, id, device: device, .failure(error))
            }
        }
        if !queued { answer(request, id, device: device, .failure(ChimeFailure(description: "the node is stopping"))) }
    }

    private func answer(_ request: WebCommandRequest, _ id: UInt64, device: String, _ outcome: Result<AudioChime.Played, ChimeFailure>) {
        let response: Response
        switch outcome {
        case .success(let played):
            var mixer = JSONValue.null
            if let found = played.mixer {
                mixer = .object(JSONObject([
                    ("control", .string(found.control)), ("switched_on", found.switchedOn.map(JSONValue.bool) ?? .null),
                    ("volume_percent", found.volumePercent.map { .int(Int64($0)) } ?? .null), ("muted", .optional(found.mutedMessage)),
                ]))
            }
            let result = JSONObject([("device", .string(device)), ("played", .bool(true)), ("frames", .int(Int64(played.frames))),
                                     ("mixer", mixer)])
            response = request.response(.success(.object(result)))
        case .failure(let failure):
            response = request.response(.failure(CommandError(.audioUnavailable, field: "device", failure.description)))
        }
        server.withLock { $0 }?.reply(id, response)
    }

    /// The device asked for (nil: the current one), or why the body is refused.
    private static func requested(_ body: [UInt8]) -> Result<String?, CommandError> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(nil) }
        guard let object = (try? JSONParser(maxDepth: 4).parse(body))?.objectValue else {
            return .failure(CommandError(.invalidJSON, "POST /api/audio/test takes {\"device\": \"name\"} or nothing"))
        }
        for (key, _) in object.pairs where key != "device" && key != "request_id" {
            return .failure(.invalidField(String(key.prefix(64)), "\(key.prefix(64)): not a field of audio/test (only \"device\")"))
        }
        guard let value = object["device"], !value.isNull else { return .success(nil) }
        guard let name = value.stringValue else { return .failure(.invalidField("device", "device: must be an ALSA device name")) }
        // A name, never a definition: `file:'/path'` made ALSA write the chime into that file.
        if let problem = SoundDeviceName.problem(name) { return .failure(.invalidField("device", "device: \(problem)")) }
        return .success(name)
    }
}
