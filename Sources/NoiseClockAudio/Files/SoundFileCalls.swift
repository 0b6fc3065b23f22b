import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where libsndfile is called from, so a test can prove the audio thread never is: every
/// `SoundFile` open, read, seek and close is counted here, by the calling thread's name for
/// opens, and separately when it runs on the audio thread (`AudioThreadMark`), which must stay 0.
/// A lock and a name read per open, a thread-local read per block: nothing next to the decoding.
public enum SoundFileCalls {
    private static let audioThreadCalls = Atomic<Int>(0)
    private static let opens = Mutex<[String: Int]>([:])

    /// libsndfile calls made on the audio thread since start: 0 unless something regressed.
    public static var onAudioThread: Int { audioThreadCalls.load(ordering: .relaxed) }

    /// Files opened since start, by the name of the thread that opened them (`sound-files`,
    /// `node-loop`, ...; `audio` must never appear).
    public static var opensByThread: [String: Int] { opens.withLock { $0 } }

    static func opening() {
        noteIfAudioThread()
        let name = DedicatedThread.currentName
        opens.withLock { $0[name, default: 0] += 1 }
    }

    /// A read, seek or close: only whether it is on the audio thread.
    @inline(__always)
    static func noteIfAudioThread() {
        if AudioThreadMark.isCurrent { audioThreadCalls.add(1, ordering: .relaxed) }
    }
}

/// Marks the audio thread (a thread-local flag its loop sets first), so code that must never run
/// there can tell.
enum AudioThreadMark {
    /// Internal: the tests' allocation counter finds the audio thread by it.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Called by the audio thread as it starts.
    static func markCurrentThread() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }

    static var isCurrent: Bool { pthread_getspecific(key) != nil }
}
