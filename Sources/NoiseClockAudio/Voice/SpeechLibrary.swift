import CEspeakNG

/// eSpeak NG's functions, from `libespeak-ng.so.1` opened with dlopen on the first utterance:
/// linked at build time, the library and what it needs (PulseAudio, X11) would be mapped into
/// every node, speaking or not (about 1.5 MB of idle RSS).
struct SpeechLibrary {
    typealias Initialize = @convention(c) (espeak_AUDIO_OUTPUT, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Callback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32
    typealias SetCallback = @convention(c) (Callback?) -> Void
    typealias SetVoice = @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR
    typealias SetParameter = @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR
    typealias Synth = @convention(c) (
        UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32, UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?
    ) -> espeak_ERROR
    typealias Synchronize = @convention(c) () -> espeak_ERROR

    let initialize: Initialize
    let setSynthCallback: SetCallback
    let setVoiceByName: SetVoice
    let setParameter: SetParameter
    let synth: Synth
    let synchronize: Synchronize

    static let soname = "libespeak-ng.so.1"

    /// Opens the library; nil with dlerror's reason when it (or a function) is missing.
    static func open() -> Result<SpeechLibrary, SpeechSynthesizer.SpeechError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(SpeechSynthesizer.SpeechError(description: "cannot load eSpeak NG (\(reason)); install libespeak-ng1"))
        }
        func symbol<T>(_ name: String, _ type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let initialize = symbol("espeak_Initialize", Initialize.self),
              let setSynthCallback = symbol("espeak_SetSynthCallback", SetCallback.self),
              let setVoiceByName = symbol("espeak_SetVoiceByName", SetVoice.self),
              let setParameter = symbol("espeak_SetParameter", SetParameter.self),
              let synth = symbol("espeak_Synth", Synth.self),
              let synchronize = symbol("espeak_Synchronize", Synchronize.self)
        else {
            return .failure(SpeechSynthesizer.SpeechError(description: "\(soname) lacks an eSpeak NG function"))
        }
        return .success(SpeechLibrary(
            initialize: initialize, setSynthCallback: setSynthCallback, setVoiceByName: setVoiceByName, setParameter: setParameter,
            synth: synth, synchronize: synchronize))
    }
}
