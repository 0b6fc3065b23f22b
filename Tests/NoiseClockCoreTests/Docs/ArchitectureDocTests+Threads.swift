import Foundation
import Testing

/// docs/architecture.md, "Threads": every thread has an owner that joins it. Nothing in Sources
/// lets a thread end on its own (`detach()`) or starts an unowned task (`Task.detached`).
extension ArchitectureDocTests {
    @Test func noThreadIsLeftToEndOnItsOwn() throws {
        for (place, line) in try Self.sourceLines() {
            for banned in ["detach()", "Task.detached"] where line.contains(banned) {
                Issue.record("\(place) uses \(banned): give the thread an owner that joins it (JobThreads, a service's stop)")
            }
        }
    }
}
