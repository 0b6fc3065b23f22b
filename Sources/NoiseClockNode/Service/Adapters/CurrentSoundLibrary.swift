import NoiseClockAudio
import Synchronization

/// The sound library in use now: `SoundsWatchService` replaces it after a rescan of `sounds_dir`
/// (as it hands the new one to the audio engine), `ReadinessService` asks it whether the next
/// alarm's sound can be made.
final class CurrentSoundLibrary: Sendable {
    private let library: Mutex<SoundLibrary?>

    init(_ library: SoundLibrary?) { self.library = Mutex(library) }

    var value: SoundLibrary? {
        get { library.withLock { $0 } }
        set { library.withLock { $0 = newValue } }
    }
}
