import Foundation
import Testing

/// docs/architecture.md, "Threads": every thread has an owner that joins it. Nothing in Sources
/// lets a thread end on its own (`detach()`) or starts an unowned task (`Task.detached`).
extension ArchitectureDocTests {
    @Test func noThreadIsLeftToEndOnItsOwn() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 100, "only \(files.count) Swift files found under Sources")
        for (path, text) in files {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for banned in ["detach()", "Task.detached"] where line.contains(banned) {
                    Issue.record("\(path):\(number + 1) uses \(banned): give the thread an owner that joins it (JobThreads, a service's stop)")
                }
            }
        }
    }
}
