import Foundation
import Testing
@testable import NoiseClockCore

/// docs/architecture.md's lists, read from the doc and from the code, must name the same things:
/// the modules (Package.swift's targets), the services (every type in Sources/NoiseClockNode
/// that conforms to `Service`), the threads (every `…Thread(name: "…")` in Sources) and the
/// cases of `NodeInput` and `NodeEffect`. A list in the doc is a table between
/// `<!-- list: NAME … -->` and `<!-- end list -->`; the names are the backquoted words of each row's
/// first cell. A failure says which name is missing from which side.
@Suite struct ArchitectureDocTests {
    struct Missing: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every Swift file under `folder` (relative to the package), with its text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        try files(under: folder, withExtension: "swift")
    }

    /// Every file ending in `.ext` under `folder` (relative to the package), with its text.
    static func files(under folder: String, withExtension ext: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == ext {
            files.append((folder + url.path.dropFirst(base.path.count), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Every line of the Swift files under Sources, with its place ("path:line"); at least a
    /// hundred files, or the walk found the wrong folder.
    static func sourceLines() throws -> [(place: String, line: Substring)] {
        let files = try swiftFiles(under: "Sources")
        #expect(files.count > 100, "only \(files.count) Swift files found under Sources")
        return files.flatMap { path, text in
            text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ("\(path):\($0.offset + 1)", $0.element) }
        }
    }

    /// The names in the doc's list `name`.
    static func documented(_ name: String) throws -> [String] {
        let doc = try read("docs/architecture.md")
        guard let marker = doc.range(of: "<!-- list: \(name)"), let start = doc.range(of: "-->", range: marker.upperBound..<doc.endIndex),
              let end = doc.range(of: "<!-- end list -->", range: start.upperBound..<doc.endIndex) else {
            throw Missing("docs/architecture.md has no list \"\(name)\" (<!-- list: \(name) --> … <!-- end list -->)")
        }
        var names: [String] = []
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("|") {
            let cell = line.dropFirst().prefix { $0 != "|" }
            let pieces = cell.split(separator: "`", omittingEmptySubsequences: false)
            names += pieces.indices.filter { $0 % 2 == 1 }.map { String(pieces[$0]) }
        }
        return names
    }

    /// Compares the doc's list with the code's names, each way, naming every difference.
    static func compare(_ list: String, code: [String: String], sourceName: String) throws {
        let doc = try documented(list)
        for (name, whereFound) in code.sorted(by: { $0.key < $1.key }) where !doc.contains(name) {
            Issue.record("docs/architecture.md's \(list) list is missing `\(name)` (\(sourceName) in \(whereFound))")
        }
        for name in doc where code[name] == nil {
            Issue.record("docs/architecture.md's \(list) list names `\(name)`, which is no \(sourceName) in the code")
        }
        #expect(!doc.isEmpty && !code.isEmpty, "the \(list) list or the code's \(sourceName)s were not found")
        #expect(Set(doc).count == doc.count, "docs/architecture.md's \(list) list names something twice: \(doc)")
    }

    @Test func theModulesArePackageSwiftsTargets() throws {
        let package = try Self.read("Package.swift")
        let pattern = try Regex(#"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        var targets: [String: String] = [:]
        for match in package.matches(of: pattern) {
            if let name = match.output[2].substring { targets[String(name)] = "Package.swift" }
        }
        try Self.compare("modules", code: targets, sourceName: "target")
    }

    @Test func theServicesAreTheTypesThatConformToService() throws {
        let declaration = try Regex(#"(?:struct|class|actor|extension)\s+(\w+)\s*:\s*([^{]+)\{"#)
        var services: [String: String] = [:]
        for (path, text) in try Self.swiftFiles(under: "Sources/NoiseClockNode") {
            for match in text.matches(of: declaration) {
                guard let name = match.output[1].substring, let conformances = match.output[2].substring else { continue }
                if conformances.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "Service" }) {
                    services[String(name)] = path
                }
            }
        }
        try Self.compare("services", code: services, sourceName: "Service")
    }

    @Test func theThreadsAreTheDedicatedThreadsNamedInTheCode() throws {
        // `DedicatedThread(name: "audio")`, a thread type built on it (`WorkThread(name: "x")`,
        // `JobThreads(name: "x")`), or a name given as a parameter's default (`threadName: String = "x"`).
        let pattern = try Regex(#"(?:\b[A-Z]\w*Threads?\(name:\s*|[tT]hreadName:\s*String\s*=\s*)"([^"]+)""#)
        var threads: [String: String] = [:]
        for folder in ["Sources"] {
            for (path, text) in try Self.swiftFiles(under: folder) {
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for match in line.matches(of: pattern) {
                        if let name = match.output[1].substring { threads[String(name)] = path }
                    }
                }
            }
        }
        try Self.compare("threads", code: threads, sourceName: "thread")
    }

    @Test func theInputsAreNodeInputsCases() throws {
        try Self.compare("inputs", code: try Self.cases(of: "NodeInput"), sourceName: "NodeInput case")
    }

    @Test func theRulesAreFeatureRulesCases() throws {
        // Read from the type itself: a rule added to `FeatureRule` and not to the doc fails here.
        let rules = Dictionary(uniqueKeysWithValues: FeatureRule.allCases.map { ($0.rawValue, "Rules/FeatureRule.swift") })
        try Self.compare("rules", code: rules, sourceName: "FeatureRule case")
    }

    @Test func theEffectsAreNodeEffectsCases() throws {
        try Self.compare("effects", code: try Self.cases(of: "NodeEffect"), sourceName: "NodeEffect case")
    }

    /// The cases of the enum `name` declared in Sources/NoiseClockCore: every `case` at the top
    /// level of its body (`case a(X)`, `case b, c`), with the file that declares it.
    static func cases(of name: String) throws -> [String: String] {
        for (path, source) in try swiftFiles(under: "Sources/NoiseClockCore") {
            // Comments out first: their parentheses need not balance.
            let text = source.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
            guard let head = text.range(of: "enum \(name):") ?? text.range(of: "enum \(name) "),
                  let open = text[head.upperBound...].firstIndex(of: "{") else { continue }
            var depth = 0
            var body = ""
            for character in text[open...] {
                if character == "{" || character == "(" { depth += 1 }
                if character == "}" || character == ")" { depth -= 1 }
                if depth == 0 { break }
                // Only the body's own level: nested parentheses (associated values) and braces are skipped.
                if depth == 1 && character != "{" { body.append(character) }
            }
            var cases: [String: String] = [:]
            for line in body.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("case ") else { continue }
                for item in trimmed.dropFirst(5).split(separator: ",") {
                    let word = item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !word.isEmpty { cases[String(word)] = path }
                }
            }
            return cases
        }
        throw Missing("no enum \(name) in Sources/NoiseClockCore")
    }
}
