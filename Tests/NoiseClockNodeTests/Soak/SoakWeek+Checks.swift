import Foundation
import NoiseClockCore
import Testing

extension SoakWeek {
    /// Counts the night's alarm events (everything the node sent is in: the caller's barrier) and
    /// checks them: before a weekday, one ring at 06:30 within its minute, two after snoozes, each
    /// one sounding; otherwise none; never a `missed`, `timed_out` or `failed`, nor a timer.
    func count(_ record: inout Night, since mark: Int) throws {
        let fired = rig.messages(node, "alarm/fired", after: mark).compactMap(\.json)
        let events = rig.messages(node, "alarm/event", after: mark).compactMap(\.json)
        record.rings = fired.filter { $0["snooze_count"] == 0 }.count
        record.refires = fired.count - record.rings
        record.sounding = events.filter { $0["event"] == "sounding" }.count
        let weekday = Self.weekdayMorning(after: record.number)
        let name = "night \(record.number)"
        #expect(fired.allSatisfy { $0["id"] == "work" }, "\(name): \(fired.map(\.serialized))")
        #expect(record.rings == (weekday ? 1 : 0), "\(name): \(record.rings) rings at the alarm's minute")
        #expect(record.refires == (weekday ? 2 : 0), "\(name): \(record.refires) rings after snoozes")
        #expect(record.sounding == record.rings + record.refires, "\(name): \(record.sounding) sounding")
        let trouble = events.filter { ["missed", "timed_out", "failed"].contains($0["event"]?.stringValue ?? "") }
        #expect(trouble.isEmpty, "\(name): \(trouble.map(\.serialized))")
        guard weekday, let first = fired.first(where: { $0["snooze_count"] == 0 }) else { return }
        let due = at(record.number + 1, 6, 30)
        let scheduled = first["scheduled"]?.stringValue.flatMap(MinuteBoundary.date(iso:))
        let rang = try #require(first["at"]?.stringValue.flatMap(MinuteBoundary.date(iso:)), "\(first.serialized)")
        #expect(scheduled == due && rang >= due && rang < due.addingTimeInterval(60), "\(name): \(first.serialized)")
    }

    /// Everything acknowledged is on the retained topics a newcomer gets and in the state files.
    func checkKept(_ when: String) async throws {
        let topics = ["alarms", "style", "routines"].map { "\(root)/\($0)" }
        let watcher = try await TestClient(port: rig.broker.port, subscriptions: topics)
        defer { watcher.shutdown() }
        let alarms = try await watcher.waitFor(topics[0]).json?.arrayValue ?? []
        #expect(alarms.first { $0["id"] == "work" }?["label"] == .string(acknowledged.label), "~/alarms \(when)")
        let labels = FaultSupport.labels(in: try FaultSupport.stateFile(node.stateDirectory, NodeCore.StateFile.alarms))
        #expect(labels.contains(acknowledged.label), "alarms.json \(when): \(labels)")
        if let glow = acknowledged.glow {
            #expect(try await watcher.waitFor(topics[1]).json?["glow"]?.intValue == glow, "~/style \(when)")
            let file = try FaultSupport.stateFile(node.stateDirectory, NodeCore.StateFile.style)
            #expect(file?["style"]?["glow"]?.intValue == glow, "style.json \(when)")
        }
        if let volume = acknowledged.routineVolume {
            let routines = try await watcher.waitFor(topics[2]).json?.arrayValue ?? []
            #expect(routines.first { $0["id"] == "night" }?["volume"]?.intValue == volume, "~/routines \(when)")
            let file = try FaultSupport.stateFile(node.stateDirectory, NodeCore.StateFile.routines)
            let saved = file?["routines"]?.arrayValue?.first { $0["id"] == "night" }
            #expect(saved?["volume"]?.intValue == volume, "routines.json \(when)")
        }
    }

    /// The log's bytes between two figures, without the lines the test's clock jumps cause
    /// (`system clock changed`: a real night has none).
    func logBytes(_ span: (start: NodeFigures, end: NodeFigures)) -> Int {
        guard let data = FileManager.default.contents(atPath: node.logFile.path), span.end.logBytes <= data.count else { return -1 }
        let slice = data[span.start.logBytes..<span.end.logBytes]
        return slice.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .filter { !String(decoding: $0, as: UTF8.self).contains("system clock changed") }
            .reduce(0) { $0 + $1.count + 1 } - 1
    }

    /// Every figure, one line a night, then the drift from the first full night to the last.
    func report(seconds: Double) -> String {
        let days = ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"]
        var lines = ["week of nights: \(nights.count) nights in \(String(format: "%.1f", seconds)) s of wall time"]
        lines.append("night        rings at 06:30 / after snooze / sounding, naps | 23:00: RSS (anon) KiB, fds, threads (own + pool)"
            + " | night 21-10 state files/pages, write_bytes, wchar, log | day 10-21 the same")
        for night in nights {
            var line = "\(night.number) \(days[night.number % 7])→\(days[(night.number + 1) % 7])"
            line += "  work \(night.rings)/\(night.refires)/\(night.sounding), naps \(night.naps)"
            if let at = night.atEleven {
                let pool = at.threads.count - at.ownThreads.count
                line += " | \(at.residentKiB) (\(at.anonymousKiB)), \(at.descriptors.count), \(at.ownThreads.count) + \(pool)"
            }
            for (name, span) in [("night", night.night), ("day", night.day)] {
                guard let span else { continue }
                let files = span.end.stateFiles - span.start.stateFiles, pages = span.end.statePages - span.start.statePages
                line += " | \(name) \(files)/\(pages), \(span.end.writeBytes - span.start.writeBytes), \(span.end.wchar - span.start.wchar)"
                line += ", \(logBytes(span))"
            }
            lines.append(line)
        }
        let full = nights.compactMap(\.atEleven)
        if let first = full.first, let last = full.last {
            let anonymous = full.map(\.anonymousKiB)
            lines.append("anonymous RSS over the nights: \(anonymous.min()!)–\(anonymous.max()!) KiB")
            lines.append("threads night 1: \(first.threads.joined(separator: ", ")); night \(full.count): \(last.threads.joined(separator: ", "))")
            lines.append("drift night 1 → \(full.count): RSS \(last.residentKiB - first.residentKiB) KiB, "
                + "fds \(last.descriptors.count - first.descriptors.count), own threads \(last.ownThreads.count - first.ownThreads.count) "
                + "(libdispatch's pool: \(first.threads.count - first.ownThreads.count) → \(last.threads.count - last.ownThreads.count))")
        }
        return lines.joined(separator: "\n")
    }
}
