import Foundation
import Testing
@testable import NoiseClockCore

/// docs/architecture.md, "The rules the code keeps": the rules a grep can check, and the table
/// itself — every test it names exists, so a rule cannot point at a check that is gone.
extension ArchitectureDocTests {
    @Test func theCoreImportsNothing() throws {
        for (path, text) in try Self.swiftFiles(under: "Sources/NoiseClockCore") {
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "import" || words.dropFirst().first == "import" {
                    Issue.record("\(path): \(line): the core imports nothing (no Foundation, no Glibc)")
                }
            }
        }
    }

    @Test func oneLockType() throws {
        for (place, line) in try Self.sourceLines() where !place.hasPrefix("Sources/NoiseClockThreads/WakeSignal.swift") {
            for banned in ["NSLock", "os_unfair_lock", "pthread_mutex_t", "pthread_rwlock", "Locked<"] where line.contains(banned) {
                Issue.record("\(place) uses \(banned): the one lock type is Mutex (docs/architecture.md, Locks)")
            }
        }
    }

    @Test func noUnstructuredTask() throws {
        let unstructured = try Regex(#"(^|[^A-Za-z])Task\s*(\{|\()"#)
        for (place, line) in try Self.sourceLines() where line.contains(unstructured) {
            Issue.record("\(place): an unstructured Task: use a task group or a thread with an owner")
        }
    }

    /// The mermaid diagram of "How an input becomes state and effects" names every service,
    /// every input and every effect of the lists.
    @Test func theDiagramNamesEveryServiceInputAndEffect() throws {
        let doc = try Self.read("docs/architecture.md")
        guard let start = doc.range(of: "```mermaid"), let end = doc.range(of: "```", range: start.upperBound..<doc.endIndex) else {
            throw Missing("docs/architecture.md has no mermaid diagram")
        }
        let diagram = doc[start.upperBound..<end.lowerBound]
        let words = Set(diagram.split { !($0.isLetter || $0.isNumber) }.map(String.init))
        for list in ["services", "inputs", "effects"] {
            let names = try Self.documented(list)
            #expect(!names.isEmpty)
            for name in names where !words.contains(name) {
                Issue.record("docs/architecture.md's diagram does not name `\(name)` (in its \(list) list)")
            }
        }
    }

    /// Every `Suite/test` or test name the rules table gives as its check is a test in Tests/.
    @Test func theRulesTableNamesRealTests() throws {
        let doc = try Self.read("docs/architecture.md")
        guard let start = doc.range(of: "| rule | checked by |"), let end = doc.range(of: "\n\n", range: start.upperBound..<doc.endIndex) else {
            throw Missing("docs/architecture.md has no rules table (| rule | checked by |)")
        }
        let tests = try Self.swiftFiles(under: "Tests").map(\.text).joined()
        var checked = 0
        for row in doc[start.upperBound..<end.lowerBound].split(separator: "\n") where row.hasPrefix("| ") && !row.hasPrefix("|---") {
            let cell = row.split(separator: "|").last.map(String.init) ?? ""
            let names = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            #expect(!names.isEmpty, "a rule without a check: \(row)")
            for name in names {
                let parts = name.split(separator: "/")
                if parts.count == 2 {
                    let suite = tests.contains("struct \(parts[0])") || tests.contains("extension \(parts[0])")
                    #expect(suite, "no suite \(parts[0]) (\(row.prefix(60)))")
                }
                let test = String(parts.last ?? "")
                let found = parts.count == 2 ? tests.contains("func \(test)(") : (tests.contains("struct \(test)") || tests.contains("func \(test)("))
                #expect(found, "docs/architecture.md names `\(name)` as a check, which is no test in Tests/")
                checked += 1
            }
        }
        #expect(checked >= 15, "only \(checked) checks read from the rules table")
    }
}
