import NoiseClockAudio
import NoiseClockCore
import NoiseClockThreads
import ServiceLifecycle
import Synchronization

/// Speech as a service: a thread of its own synthesizes each `NodeEffect.speak` with eSpeak NG
/// (a blocking C call, kept off the cooperative pool), brings it to the engine's rate and hands
/// it to the audio engine, then tells the loop how long it is (`NodeInput.spoken`), which
/// answers the command. eSpeak NG is loaded on the first utterance, not at start.
final class SpeechService: Service, Sendable {
    private let engine: AudioEngine?
    private let voice: String
    private let rate: Int
    private let sampleRate: Int
    private let inbox: NodeInbox
    private let queue = Mutex<(requests: [SpeechRequest], stopped: Bool)>(([], false))
    private let signal = WakeSignal()
    private let thread = DedicatedThread(name: "speech")

    init(engine: AudioEngine?, voice: String, rate: Int, sampleRate: Int, inbox: NodeInbox) {
        self.engine = engine
        self.voice = voice
        self.rate = rate
        self.sampleRate = sampleRate
        self.inbox = inbox
    }

    func speak(_ request: SpeechRequest) {
        queue.withLock { $0.requests.append(request) }
        signal.signal()
    }

    func run() async throws {
        // Synthesis is a burst of a few hundred milliseconds of CPU: behind the loop and the audio.
        try thread.start { [self] in
            BackgroundPriority.lowerCallingThread()
            runLoop()
        }
        try? await gracefulShutdown()
        queue.withLock { $0.stopped = true }
        signal.signal()
        thread.join()
    }

    private func runLoop() {
        while true {
            let (requests, stopped) = queue.withLock { state in
                defer { state.requests = [] }
                return (state.requests, state.stopped)
            }
            if stopped { return }
            if requests.isEmpty {
                signal.wait(seconds: 3600)
                continue
            }
            for request in requests { say(request) }
        }
    }

    private func say(_ request: SpeechRequest) {
        do {
            let utterance = try SpeechSynthesizer.shared.synthesize(request.text, voice: voice, rate: rate)
            let samples = SpeechResampler.resample(utterance.samples, from: utterance.sampleRate, to: sampleRate)
            engine?.speak(samples, volume: request.volume)
            inbox.send(.spoken(SpeechOutcome(id: request.id, result: .success(utterance.seconds))))
        } catch {
            inbox.send(.spoken(SpeechOutcome(id: request.id, result: .failure(SpeechFailure(error.description)))))
        }
    }
}
