import CEspeakNG

/// eSpeak NG's functions, from `libespeak-ng.so.1` opened with dlopen on the first utterance:
/// linked at build time, the library and what it needs (PulseAudio, X11) would be mapped into
/// every node, speaking or not (about 1.5 MB of idle RSS).
struct SpeechLibrary {
    typealias InitializePath = @convention(c) (UnsafePointer<CChar>?) -> Void
    typealias Initialize = @convention(c) (UnsafeMutablePointer<espeak_ng_ERROR_CONTEXT?>?) -> espeak_ng_STATUS
    typealias InitializeOutput = @convention(c) (espeak_ng_OUTPUT_MODE, Int32, UnsafePointer<CChar>?) -> espeak_ng_STATUS
    typealias SampleRate = @convention(c) () -> Int32
    typealias StatusMessage = @convention(c) (espeak_ng_STATUS, UnsafeMutablePointer<CChar>?, Int) -> Void
    typealias ClearErrorContext = @convention(c) (UnsafeMutablePointer<espeak_ng_ERROR_CONTEXT?>?) -> Void
    typealias Callback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32
    typealias SetCallback = @convention(c) (Callback?) -> Void
    typealias SetVoice = @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR
    typealias SetParameter = @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR
    typealias Synth = @convention(c) (
        UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32, UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?
    ) -> espeak_ERROR
    typealias Synchronize = @convention(c) () -> espeak_ERROR

    // eSpeak NG's own start (`espeak_ng_*`), not `espeak_Initialize`, which exits the process when
    // its data is missing or damaged.
    let initializePath: InitializePath
    let initialize: Initialize
    let initializeOutput: InitializeOutput
    let sampleRate: SampleRate
    let statusMessage: StatusMessage
    let clearErrorContext: ClearErrorContext
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
        guard let initializePath = symbol("espeak_ng_InitializePath", InitializePath.self),
              let initialize = symbol("espeak_ng_Initialize", Initialize.self),
              let initializeOutput = symbol("espeak_ng_InitializeOutput", InitializeOutput.self),
              let sampleRate = symbol("espeak_ng_GetSampleRate", SampleRate.self),
              let statusMessage = symbol("espeak_ng_GetStatusCodeMessage", StatusMessage.self),
              let clearErrorContext = symbol("espeak_ng_ClearErrorContext", ClearErrorContext.self),
              let setSynthCallback = symbol("espeak_SetSynthCallback", SetCallback.self),
              let setVoiceByName = symbol("espeak_SetVoiceByName", SetVoice.self),
              let setParameter = symbol("espeak_SetParameter", SetParameter.self),
              let synth = symbol("espeak_Synth", Synth.self),
              let synchronize = symbol("espeak_Synchronize", Synchronize.self)
        else {
            return .failure(SpeechSynthesizer.SpeechError(description: "\(soname) lacks an eSpeak NG function"))
        }
        return .success(SpeechLibrary(
            initializePath: initializePath, initialize: initialize, initializeOutput: initializeOutput, sampleRate: sampleRate,
            statusMessage: statusMessage, clearErrorContext: clearErrorContext, setSynthCallback: setSynthCallback,
            setVoiceByName: setVoiceByName, setParameter: setParameter, synth: synth, synchronize: synchronize))
    }

    /// Starts eSpeak NG on its data (`ESPEAK_DATA_PATH`, else where it was built to look) for
    /// synchronous output; its sample rate, or why it cannot start.
    func start() -> Result<Int, SpeechSynthesizer.SpeechError> {
        initializePath(nil)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = initialize(&context)
        clearErrorContext(&context)
        guard status == ENS_OK else {
            var buffer = [CChar](repeating: 0, count: 256)
            statusMessage(status, &buffer, buffer.count)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(SpeechSynthesizer.SpeechError(description: "eSpeak NG could not start: \(message) (is espeak-ng-data installed?)"))
        }
        guard initializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil) == ENS_OK else {
            return .failure(SpeechSynthesizer.SpeechError(description: "eSpeak NG could not start its output"))
        }
        let rate = Int(sampleRate())
        guard rate > 0 else { return .failure(SpeechSynthesizer.SpeechError(description: "eSpeak NG gave no sample rate")) }
        return .success(rate)
    }
}
