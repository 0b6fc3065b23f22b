import Logging
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The custom files' loudness, measured once per file on a thread of its own and remembered in
/// `state_dir` (`sound-loudness.json`), keyed by path, size and modification time: a restart
/// with many long files measures nothing, and a replaced file is measured again.
public final class LoudnessStore: Sendable {
    /// What identifies one version of a file.
    struct FileKey: Hashable, Sendable {
        var path: String
        var size: Int64
        var modified: Int64

        /// The file's key as it is now; nil if it cannot be seen.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.path = path
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }

        init(path: String, size: Int64, modified: Int64) {
            self.path = path
            self.size = size
            self.modified = modified
        }
    }

    static let fileName = "sound-loudness.json"
    private let table: Mutex<[FileKey: Loudness]>
    private let store: StateStore?
    /// The measuring thread of the current batch; it ends when the queue is empty.
    private let thread = Mutex<DedicatedThread?>(nil)
    private let work = Mutex(Work())
    private let idle = WakeSignal()

    private struct Work {
        var pending: [FileKey] = []
        /// A thread is measuring (or about to end having found nothing more).
        var running = false
    }
    private let logger: Logger

    /// `stateDirectory` nil: nothing is remembered across runs.
    init(stateDirectory: String?, logger: Logger) {
        self.logger = logger
        store = stateDirectory.map { StateStore(directory: $0) }
        var table: [FileKey: Loudness] = [:]
        if let store, case .document(let document) = store.load(Self.fileName, now: WallClock.now()) {
            table = Self.parse(document)
        }
        self.table = Mutex(table)
    }

    /// The file's loudness if it was measured as it is now.
    func loudness(of path: String) -> Loudness? {
        guard let key = FileKey(path: path) else { return nil }
        return table.withLock { $0[key] }
    }

    /// Queues the files not yet known for measuring, one after another on the store's thread
    /// (started on first use, then waiting for more); forgets files no longer listed; saves
    /// after each file, so an interrupted run keeps what it did.
    func measureInBackground(_ paths: [String]) {
        let keys = paths.compactMap { FileKey(path: $0) }
        let added = table.withLock { table in
            table = table.filter { keys.contains($0.key) }
            return keys.filter { table[$0] == nil }
        }
        let start = work.withLock { work in
            work.pending.append(contentsOf: added.filter { !work.pending.contains($0) })
            defer { if !work.pending.isEmpty { work.running = true } }
            return !work.pending.isEmpty && !work.running
        }
        guard start else { return }
        let next = DedicatedThread(name: "loudness")
        // The previous batch's thread has ended (or is returning): joining it costs nothing.
        thread.withLock { $0 }?.join()
        thread.withLock { $0 = next }
        do {
            try next.start { [self] in runMeasurements() }
        } catch {
            work.withLock { $0.running = false }
            logger.warning("cannot start the loudness thread", metadata: ["error": "\(error)"])
        }
    }

    private func runMeasurements() {
        while true {
            let next = work.withLock { work -> FileKey? in
                if work.pending.isEmpty {
                    work.running = false
                    return nil
                }
                return work.pending.removeFirst()
            }
            guard let key = next else {
                idle.signal()
                return
            }
            // Measured only if the file is still as it was queued (a replaced one is queued anew).
            guard FileKey(path: key.path) == key else { continue }
            do {
                let measured = try LoudnessMeter.measure(path: key.path)
                table.withLock { $0[key] = measured }
                save()
                logger.info("sound loudness measured", metadata: ["file": "\(key.path)", "lufs": "\(measured.lufs)"])
            } catch {
                logger.warning("sound loudness cannot be measured", metadata: ["file": "\(key.path)", "error": "\(error)"])
            }
        }
    }

    /// Waits until everything queued is measured (tests, and the `sounds` command).
    func waitForMeasurements() {
        while work.withLock({ $0.running }) { idle.wait(seconds: 0.5) }
    }

    private func save() {
        guard let store else { return }
        let entries = table.withLock { $0 }.sorted { $0.key.path < $1.key.path }.map { key, loudness in
            JSONValue.object(JSONObject([
                ("path", .string(key.path)), ("size", .int(key.size)), ("modified_ns", .int(key.modified)),
                ("lufs", .double(loudness.lufs)), ("peak", .double(loudness.peak)),
            ]))
        }
        do {
            try store.prepare()
            try store.write(Self.fileName, .object(JSONObject([("version", .int(1)), ("files", .array(entries))])))
        } catch {
            logger.warning("cannot remember sound loudness", metadata: ["error": "\(error)"])
        }
    }

    static func parse(_ document: JSONValue) -> [FileKey: Loudness] {
        guard case .object(let root) = document, case .array(let files)? = root["files"] else { return [:] }
        var table: [FileKey: Loudness] = [:]
        for case .object(let entry) in files {
            guard case .string(let path)? = entry["path"], case .int(let size)? = entry["size"],
                  case .int(let modified)? = entry["modified_ns"], let lufs = number(entry["lufs"]), let peak = number(entry["peak"])
            else { continue }
            table[FileKey(path: path, size: size, modified: modified)] = Loudness(lufs: lufs, peak: peak)
        }
        return table
    }

    private static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .double(let x)?: x
        case .int(let x)?: Double(x)
        default: nil
        }
    }
}
