import NoiseClockPlatform

/// Whether speech can work, judged from files on disk without loading eSpeak NG (a node that has
/// not spoken keeps its idle memory): the library where the dynamic loader looks, its data (as
/// `ESPEAK_DATA_PATH` or the library's own folder gives it), the voice's file and dictionary.
/// The first utterance has the last word (`SpeechSynthesizer`).
public enum SpeechAvailability {
    /// Why `voice` cannot speak, or nil when everything it needs is there.
    public static func problem(voice: String, environment: [String: String]) -> String? {
        let libraryDirectories = (environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init) + systemLibraryDirectories
        guard let library = libraryDirectories.first(where: { FileBytes.exists("\($0)/\(SpeechLibrary.soname)") }) else {
            return "eSpeak NG is not installed (no \(SpeechLibrary.soname); install libespeak-ng1)"
        }
        let data = environment["ESPEAK_DATA_PATH"].map { "\($0)/espeak-ng-data" } ?? "\(library)/espeak-ng-data"
        if let missing = ["phontab", "phonindex", "phondata", "intonations"].first(where: { !FileBytes.isRegularFile("\(data)/\($0)") }) {
            return "no eSpeak NG data (\(data)/\(missing) is missing; install espeak-ng-data)"
        }
        let name = String(voice.prefix { $0 != "+" }).lowercased()
        guard let file = voiceFile(name, in: "\(data)/lang") ?? voiceFile(name, in: "\(data)/voices") else {
            return "no eSpeak NG voice \"\(voice)\" (see espeak-ng --voices)"
        }
        let dictionary = dictionaryName(file) ?? name.prefix { $0 != "-" }.description
        guard FileBytes.isRegularFile("\(data)/\(dictionary)_dict") else {
            return "no eSpeak NG dictionary for voice \"\(voice)\" (\(data)/\(dictionary)_dict is missing)"
        }
        return nil
    }

    static var systemLibraryDirectories: [String] {
        #if arch(x86_64)
        let triplet = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let triplet = "aarch64-linux-gnu"
        #else
        let triplet = "arm-linux-gnueabihf"
        #endif
        return ["/usr/local/lib", "/usr/lib/\(triplet)", "/lib/\(triplet)", "/usr/lib", "/lib"]
    }

    /// The voice file whose name (or path below `directory`, `gmw/en-us`) is `name`, ignoring case.
    static func voiceFile(_ name: String, in directory: String, prefix: String = "", depth: Int = 0) -> String? {
        guard depth < 4, let entries = FileBytes.directoryEntries(directory) else { return nil }
        for entry in entries.sorted() {
            let path = "\(directory)/\(entry)"
            if FileBytes.isRegularFile(path) {
                if entry.lowercased() == name || (prefix + entry).lowercased() == name { return path }
            } else if let found = voiceFile(name, in: path, prefix: prefix + entry + "/", depth: depth + 1) {
                return found
            }
        }
        return nil
    }

    /// The dictionary a voice file names: `dictionary xx`, else its first `language xx-yy` (`xx`).
    static func dictionaryName(_ file: String) -> String? {
        guard let bytes = FileBytes.contents(of: file, limit: 64 << 10) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        if let line = lines.first(where: { $0.first == "dictionary" && $0.count > 1 }) { return String(line[1]) }
        guard let line = lines.first(where: { $0.first == "language" && $0.count > 1 }) else { return nil }
        return String(line[1].prefix { $0 != "-" })
    }
}
