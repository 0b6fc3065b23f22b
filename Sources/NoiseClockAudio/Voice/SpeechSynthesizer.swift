import CEspeakNG
import NoiseClockCore
import NoiseClockThreads
import Synchronization

/// Speech from eSpeak NG's library (not a subprocess). The library is one global engine, so
/// there is one synthesizer, used under a lock; the library is opened (`SpeechLibrary`) and
/// initialised on the first utterance, so a node that never speaks never maps it nor loads the
/// voices (issue 20: idle memory as before).
public final class SpeechSynthesizer: Sendable {
    public static let shared = SpeechSynthesizer()

    /// One utterance: mono 16-bit samples at `sampleRate` (eSpeak NG's own, 22 050 Hz).
    public struct Utterance: Sendable {
        public var samples: [Int16]
        public var sampleRate: Int
        public var seconds: Double { Double(samples.count) / Double(sampleRate) }
    }

    public struct SpeechError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// eSpeak NG once opened and initialised: its functions and sample rate (nil: not yet).
    private let engine = Mutex<Engine?>(nil)

    private struct Engine: @unchecked Sendable {
        // @unchecked Sendable: C function pointers, only called under the lock.
        let library: SpeechLibrary
        let sampleRate: Int
    }

    private init() {}

    /// Speaks `text` with `voice` (`en`, `ko`, or any eSpeak NG voice name) at `rate` words per
    /// minute (80–450), at eSpeak NG's default amplitude (as `espeak-ng -w` makes it).
    public func synthesize(_ text: String, voice: String, rate: Int) throws(SpeechError) -> Utterance {
        try engine.withLock { engine throws(SpeechError) -> Utterance in
            if engine == nil {
                let library = try SpeechLibrary.open().get()
                let rate = try library.start().get()
                library.setSynthCallback(speechCallback)
                engine = Engine(library: library, sampleRate: rate)
            }
            guard let engine else { throw SpeechError(description: "eSpeak NG is not available") }
            let library = engine.library
            guard library.setVoiceByName(voice) == EE_OK else { throw SpeechError(description: "no eSpeak NG voice \"\(voice)\"") }
            _ = library.setParameter(espeakRATE, Int32(min(max(rate, 80), 450)), 0)
            let collector = SampleCollector()
            let context = Unmanaged.passRetained(collector)
            defer { context.release() }
            // Whoever made the text, eSpeak NG never sees a control character (its embedded
            // commands); flags: UTF-8 only, no SSML, no phoneme input, so markup is read as words.
            let bytes = Array(SpeechText.clean(text).utf8) + [0]
            let status = bytes.withUnsafeBytes { buffer in
                library.synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
            }
            guard status == EE_OK else { throw SpeechError(description: "eSpeak NG could not speak (error \(status.rawValue))") }
            _ = library.synchronize()
            return Utterance(samples: collector.samples, sampleRate: engine.sampleRate)
        }
    }
}

/// Where the callback puts the samples of the utterance being made (only touched under the
/// synthesizer's lock, on the thread that called `espeak_Synth`).
private final class SampleCollector {
    var samples: [Int16] = []
}

/// eSpeak NG's synthesis callback: a C function, so the utterance's collector comes back
/// through the events' `user_data`. Returns 0 to go on.
private func speechCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let wav, count > 0, let user = events?.pointee.user_data else { return 0 }
    let collector = Unmanaged<SampleCollector>.fromOpaque(user).takeUnretainedValue()
    collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}
