import Allocator
import ArgumentParser
import CBaselines
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack
import StackLedgerTesting
import Synchronization

/// Measures the engine and projections on a store: full rebuild against a raw LMDB scan
/// and a decode-only scan (same run), `state` answers in-process (median, p99), with
/// `--known-at`, the first answer after a late event, checkpoint size and peak memory.
struct EngineBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackledger-engine-bench",
        abstract: "Benchmark the Smart Stack engine and its projections on a store.")

    @Option(help: "A store holding the workload (its checkpoints are rebuilt; two late events are appended).")
    var store: String
    @Option(help: "State queries to time.") var queries = 300
    @Option(help: "Threads for the rebuild and the scans.") var threads = 2
    @Option(help: "Events per device between checkpoints.") var checkpointInterval = Projector.defaultCheckpointInterval
    @Option(help: "Repetitions of the rebuild and the scans (medians are reported).") var repeats = 1
    @Option(help: "Random seed for query times.") var seed: UInt64 = 7
    @Flag(help: "Keep the store's checkpoints: skip the rebuild (and its figures).") var noRebuild = false
    @Flag(
        help:
            "Measure only the engine on --threads devices' events, one per thread, decoded beforehand (1 for callgrind)."
    ) var engineOnly = false
    @Flag(
        help:
            "Measure only a scan that decodes every record, on --threads threads (1 for perf and callgrind), --repeats times."
    ) var decodeOnly = false
    @Flag(help: "Only rebuild the checkpoints, once (for measuring the rebuild's memory from outside).")
    var rebuildOnly = false
    @Flag(
        help:
            "Only append the two late events and time the first answer after each (on a store whose checkpoints are built)."
    ) var lateOnly = false
    @Flag(
        help:
            "Only answer --queries state and why questions at random instants from the store's checkpoints (for perf and callgrind)."
    ) var queriesOnly = false
    @Flag(
        help:
            "Only apply every device's events to the engine, one thread, and print the engine's time by event type (the transitions an event's instant runs count with it)."
    ) var byType = false

    func run() throws {
        let ledger = try Ledger(path: store)
        let policy = Policy()
        if byType {
            print(try costByType(ledger: ledger, policy: policy))
            return
        }
        if engineOnly {
            let rate = Int(try engineOnlyRate(ledger: ledger, policy: policy, threads: threads))
            print(
                "engine alone, events decoded beforehand (\(threads) thread\(threads == 1 ? "" : "s"), one device each): \(rate) events/s"
            )
            return
        }
        if rebuildOnly {
            var n = 0
            let seconds = try time {
                n = try Projector.rebuild(
                    ledger: ledger, policy: policy, threads: threads, checkpointInterval: checkpointInterval)
            }
            print(
                "rebuild (\(threads) threads): \(n) events in \(String(format: "%.1f", seconds)) s, \(Int(Double(n) / seconds)) events/s"
            )
            let footprint = try projector(ledger, policy).checkpointFootprint()
            print("checkpoints: \(footprint.count), \(footprint.bytes) bytes")
            return
        }
        if lateOnly {
            let stats = try ledger.statistics()
            let devices = try projector(ledger, policy).devices()
            let lines = try lateAnswers(
                ledger, policy, devices: devices, first: stats.firstTime?.microseconds ?? 0,
                last: stats.lastTime?.microseconds ?? 0)
            print(lines.joined(separator: "\n"))
            return
        }
        if queriesOnly {
            print(try questionsOnly(ledger, policy))
            return
        }
        if decodeOnly {
            var rates = [Double]()
            for _ in 0..<max(1, repeats) {
                var n = 0
                let seconds = try time {
                    n = try ledger.scanInParallel(threads: max(1, threads)) { view in _ = try Event(record: view) }
                }
                rates.append(Double(n) / seconds)
            }
            print(
                "scan + decode (\(threads) thread\(threads == 1 ? "" : "s")): median \(Int(median(rates))) events/s over \(rates.count) runs"
            )
            return
        }
        let stats = try ledger.statistics()
        let events = stats.events
        var lines = [
            "store: \(store), \(events) events, \(stats.usedBytes) bytes used, \(stats.countsByDevice.count) devices; allocator: \(ProcessAllocator.description)"
        ]

        // Baselines in the same run: a plain C cursor walk of the log, and decoding every record.
        var cScan = [Double]()
        var decodeScan = [Double]()
        var folds = [Double]()
        var rebuild = [Double]()
        var rebuilt = 0
        var foldedAlone = 0
        var peakAfterBaselines = 0
        var peakInRebuild = 0
        for _ in 0..<repeats {
            cScan.append(
                try time {
                    var bytes: UInt64 = 0
                    guard cb_lmdb_scan(store, "log", &bytes) == events else {
                        throw ValidationError("the C scan did not see every record")
                    }
                })
            decodeScan.append(
                try time {
                    let n = try ledger.scanInParallel(threads: threads) { view in _ = try Event(record: view) }
                    guard n == events else { throw ValidationError("the decode scan saw \(n) of \(events) records") }
                })
            peakAfterBaselines = max(peakAfterBaselines, peakResidentKB())
            if noRebuild { continue }
            // Decode and engine on every thread, writing no checkpoint (those of the store
            // are dropped, and made again by the full rebuild that follows).
            folds.append(
                try time {
                    foldedAlone = try Projector.rebuild(
                        ledger: ledger, policy: policy, threads: threads, checkpointInterval: .max)
                })
            // The peak counted from here on is the full rebuild's own.
            resetPeakResident()
            rebuild.append(
                try time {
                    rebuilt = try Projector.rebuild(
                        ledger: ledger, policy: policy, threads: threads, checkpointInterval: checkpointInterval)
                })
            peakInRebuild = max(peakInRebuild, peakResidentKB())
        }
        // The engine alone, on one core and on every thread: devices' events decoded into
        // memory first.
        let engineRate = try engineOnlyRate(ledger: ledger, policy: policy)
        let engineParallelRate =
            threads > 1 ? try engineOnlyRate(ledger: ledger, policy: policy, threads: threads) : engineRate
        let rebuildRate = rebuild.isEmpty ? 0 : Double(rebuilt) / median(rebuild)
        lines.append("raw LMDB scan in C (1 thread): \(rate(events, cScan)) events/s")
        lines.append("scan + decode (\(threads) threads): \(rate(events, decodeScan)) events/s")
        if !noRebuild {
            let foldRate = Double(foldedAlone) / median(folds)
            lines.append(
                "decode + engine, no checkpoints written (\(threads) threads): \(Int(foldRate)) events/s \(target(foldRate, atLeast: 1_000_000, "1,000,000"))"
            )
        }
        // A phase that was not run prints no line.
        if !noRebuild {
            lines.append(
                "full rebuild, decode + engine + checkpoints (\(threads) threads): \(Int(rebuildRate)) events/s \(target(rebuildRate, atLeast: 1_000_000, "1,000,000"))"
            )
        }
        lines.append("engine alone, events decoded beforehand (1 thread, one device): \(Int(engineRate)) events/s")
        if threads > 1 {
            lines.append(
                "engine alone, events decoded beforehand (\(threads) threads, one device each): \(Int(engineParallelRate)) events/s"
            )
        }
        if !noRebuild {
            lines.append(
                "  ratio to scan + decode: \(String(format: "%.2f", rebuildRate / (Double(events) / median(decodeScan))))"
            )
            lines.append(
                "  ratio to the C scan: \(String(format: "%.3f", rebuildRate / (Double(events) / median(cScan))))")
            lines.append(
                "peak resident set through the full rebuild: \(peakInRebuild / 1024) MB (target < 1024 MB: \(peakInRebuild / 1024 < 1024 ? "met" : "NOT MET")); the baselines before it peaked at \(peakAfterBaselines / 1024) MB"
            )
        }
        let footprint = try projector(ledger, policy).checkpointFootprint()
        // Checkpoint bytes against log bytes, as `stackledger stats --json` reports them.
        let pages = try ledger.statistics()
        let share = 100 * Double(pages.derivedBytes) / Double(max(1, pages.treeBytes))
        lines.append(
            "checkpoints: \(footprint.count), checkpointBytes \(pages.derivedBytes) against logBytes \(pages.treeBytes) = \(String(format: "%.1f", share))% \(target(share, atMost: 15, "15%"))"
        )

        // State at random instants, in-process: open, pick the checkpoint, fold, snapshot, render.
        let devices = try projector(ledger, policy).devices()
        let (first, last) = (stats.firstTime?.microseconds ?? 0, stats.lastTime?.microseconds ?? 0)
        var rng = SplitMix64(seed: seed)
        func randomT() -> Int64 { first + Int64(rng.next() % UInt64(max(1, last - first))) }
        var plain = [Double]()
        var known = [Double]()
        for _ in 0..<queries {
            let device = devices[Int(rng.next() % UInt64(devices.count))]
            let t = randomT()
            plain.append(try time { _ = try answer(projector(ledger, policy), device, t, ProjectionQuery()) })
            let t2 = Timestamp(microseconds: t - Int64(rng.next() % 86_400_000_000))
            known.append(
                try time { _ = try answer(projector(ledger, policy), device, t, ProjectionQuery(knownAt: t2)) })
        }
        lines.append(
            "state --at random T, in-process: median \(ms(median(plain))) ms \(target(median(plain) * 1000, atMost: 2, "2 ms")), p99 \(ms(percentile(plain, 0.99))) ms \(target(percentile(plain, 0.99) * 1000, atMost: 20, "20 ms"))"
        )
        lines.append(
            "state --at T --known-at T2, in-process: median \(ms(median(known))) ms, p99 \(ms(percentile(known, 0.99))) ms"
        )

        // why: the state, every candidate and the verdict on one widget; also with one event
        // left out, and with one extra timeline.
        var whyPlain = [Double]()
        var whyWithout = [Double]()
        var whyWith = [Double]()
        for _ in 0..<queries {
            let device = devices[Int(rng.next() % UInt64(devices.count))]
            let t = randomT()
            let without = ProjectionQuery(without: [1 + rng.next() % UInt64(events)])
            var decoder = EventDecoder()
            let timeline = try decoder.decode(
                #"{"type":"widget.timeline","time":"\#(Timestamp(microseconds: t - 600_000_000).rfc3339)","device":"\#(device)","app":"com.example.app1","kind":"Widget1","entries":[{"date":"\#(Timestamp(microseconds: t - 300_000_000).rfc3339)","relevance":{"score":99,"duration":1800}}]}"#
            )
            for (q, sink) in [(ProjectionQuery(), 0), (without, 1), (ProjectionQuery(with: [timeline]), 2)] {
                let seconds = try time {
                    let engine = try projector(ledger, policy).engine(device: device, at: t, query: q)
                    _ = engine.candidates(stack: "stack-0")
                    _ = engine.verdict(stack: "stack-0", widget: "Widget1")
                }
                if sink == 0 {
                    whyPlain.append(seconds)
                } else if sink == 1 {
                    whyWithout.append(seconds)
                } else {
                    whyWith.append(seconds)
                }
            }
        }
        lines.append(
            "why in-process: median \(ms(median(whyPlain))) ms \(target(median(whyPlain) * 1000, atMost: 10, "10 ms")), p99 \(ms(percentile(whyPlain, 0.99))) ms"
        )
        lines.append(
            "why --without one event: median \(ms(median(whyWithout))) ms; why --with one timeline: median \(ms(median(whyWith))) ms"
        )

        lines += try lateAnswers(ledger, policy, devices: devices, first: first, last: last)
        print(lines.joined(separator: "\n"))
    }

    /// Appends two late events in the middle of the log and times the first state answer
    /// after each: an app use, whose effect fades, and a widget added to a stack, whose
    /// effect lasts to the end of the log.
    func lateAnswers(_ ledger: Ledger, _ policy: Policy, devices: [String], first: Int64, last: Int64) throws
        -> [String]
    {
        var out = [String]()
        // A late event in the middle of the log, then the first answer after it.
        let mid = first + (last - first) / 2
        var decoder = EventDecoder()
        let late = try decoder.decode(
            #"{"type":"app.foreground","time":"\#(Timestamp(microseconds: mid).rfc3339)","device":"\#(devices[0])","app":"com.example.late","duration":5}"#
        )
        _ = try ledger.append([late])
        let lateAnswer = try time {
            _ = try answer(projector(ledger, policy), devices[0], mid + (last - mid) / 2, ProjectionQuery())
        }
        out.append(
            "first state answer after a late event in the middle of the log: \(ms(lateAnswer)) ms \(target(lateAnswer * 1000, atMost: 1000, "1000 ms"))"
        )
        // A late event whose effect lasts to the end of the log: no stale checkpoint after
        // it holds the state the refold reaches, so the answer refolds up to its instant.
        if devices.count > 1 {
            let lasting = try decoder.decode(
                #"{"type":"stack.widgetAdded","time":"\#(Timestamp(microseconds: mid).rfc3339)","device":"\#(devices[1])","stack":"stack-0","widget":{"instance":"w-late","app":"com.example.late","kind":"LateWidget","family":"systemSmall"}}"#
            )
            _ = try ledger.append([lasting])
            let lastingAnswer = try time {
                _ = try answer(projector(ledger, policy), devices[1], mid + (last - mid) / 2, ProjectionQuery())
            }
            out.append(
                "first state answer after a late widget added mid-log, whose effect lasts: \(ms(lastingAnswer)) ms \(target(lastingAnswer * 1000, atMost: 1000, "1000 ms"))"
            )
            // Baseline: the events that answer refolded, decoded beforehand and applied
            // alone to the engine as it stood just before the late event.
            let (n, alone) = try engineAlone(
                ledger, policy, device: devices[1], after: mid - 1, through: mid + (last - mid) / 2)
            out.append(
                "  the same \(n) events applied alone to the engine (decoded beforehand): \(ms(alone)) ms; answer / engine alone: \(String(format: "%.2f", lastingAnswer / alone))"
            )
        }
        return out
    }

    /// Seconds the engine alone takes over `device`'s events dated in `(after, through]`:
    /// the engine at `after` is made first, and the events are decoded into memory
    /// before the clock starts. Returns the number of events too.
    func engineAlone(_ ledger: Ledger, _ policy: Policy, device: String, after: Int64, through: Int64) throws -> (
        Int, Double
    ) {
        var engine = try projector(ledger, policy).engine(device: device, at: after)
        let events = try decodedEvents(ledger, device: device, after: engine.position, through: through)
        let seconds = try time { apply(events, to: &engine) }
        return (events.count, seconds)
    }

    /// `device`'s events after `position` dated up to `through`, decoded, with their
    /// sequence numbers.
    func decodedEvents(_ ledger: Ledger, device: String, after position: (time: Int64, seq: UInt64)?, through: Int64)
        throws -> [(UInt64, Event)]
    {
        var events = [(UInt64, Event)]()
        try ledger.read { reader in
            try reader.forEachRecord(device: device, after: position, throughMicros: through, identities: false) {
                view in
                events.append((view.seq, try Event(record: view)))
                return true
            }
        }
        return events
    }

    /// Applies `events` to `engine` in order, dropping the decisions they make.
    func apply(_ events: [(UInt64, Event)], to engine: inout DeviceEngine) {
        for (seq, event) in events {
            engine.apply(event, seq: seq)
            _ = engine.takeDecisions()
        }
    }

    /// A `state` answer as the CLI makes it in-process: the engine at `t`, its snapshot
    /// rendered as JSON; returns the rendering's size.
    func answer(_ projector: Projector, _ device: String, _ t: Int64, _ q: ProjectionQuery) throws -> Int {
        let engine = try projector.engine(device: device, at: t, query: q)
        var w = CanonicalWriter()
        ProjectionJSON.writeStacks(&w, engine.snapshot(at: Timestamp(microseconds: t)).stacks)
        return w.bytes.count
    }

    /// Answers `--queries` state and why questions at random instants of random devices,
    /// as `serve` does, and reports their median time.
    func questionsOnly(_ ledger: Ledger, _ policy: Policy) throws -> String {
        let stats = try ledger.statistics()
        let devices = try projector(ledger, policy).devices()
        let (first, last) = (stats.firstTime?.microseconds ?? 0, stats.lastTime?.microseconds ?? 0)
        var rng = SplitMix64(seed: seed)
        var times = [Double]()
        for _ in 0..<queries {
            let device = devices[Int(rng.next() % UInt64(devices.count))]
            let t = first + Int64(rng.next() % UInt64(max(1, last - first)))
            times.append(
                try time {
                    _ = try answer(projector(ledger, policy), device, t, ProjectionQuery())
                    let engine = try projector(ledger, policy).engine(device: device, at: t, query: ProjectionQuery())
                    _ = engine.verdict(stack: "stack-0", widget: "Widget1")
                })
        }
        return "\(queries) state and why questions at random instants: median \(ms(median(times))) ms"
    }

    /// A projector that makes checkpoints at `--checkpoint-interval`, as the rebuild does.
    func projector(_ ledger: Ledger, _ policy: Policy) -> Projector {
        let projector = Projector(ledger: ledger, policy: policy)
        projector.checkpointInterval = checkpointInterval
        return projector
    }

    /// Events per second of `DeviceEngine.apply` alone over the first `threads` devices'
    /// events, decoded into memory beforehand, one device per thread, all at once (median
    /// of three passes).
    func engineOnlyRate(ledger: Ledger, policy: Policy, threads: Int = 1) throws -> Double {
        let devices = Array(try projector(ledger, policy).devices().prefix(max(1, threads)))
        let all = try devices.map { try decodedEvents(ledger, device: $0, after: nil, through: .max) }
        var passes = [Double]()
        for _ in 0..<3 {
            passes.append(
                try time {
                    DispatchQueue.concurrentPerform(iterations: all.count) { k in
                        var engine = DeviceEngine(device: devices[k], policy: policy)
                        apply(all[k], to: &engine)
                    }
                })
        }
        return Double(all.map(\.count).reduce(0, +)) / median(passes)
    }

    /// The engine's time by event type over every device's events, decoded beforehand and
    /// applied on one thread, each `apply` timed apart (the transitions its instant runs,
    /// such as an entry's date or a window closing, count with it), median of three passes:
    /// a table of each type's events, their share of all events, nanoseconds per event and
    /// share of the engine's time, most costly first.
    func costByType(ledger: Ledger, policy: Policy) throws -> String {
        let devices = try projector(ledger, policy).devices()
        let all = try devices.map { try decodedEvents(ledger, device: $0, after: nil, through: .max) }
        var passes = [[String: (events: Int, nanoseconds: UInt64)]]()
        for _ in 0..<3 {
            var cost = [String: (events: Int, nanoseconds: UInt64)]()
            for (k, events) in all.enumerated() {
                var engine = DeviceEngine(device: devices[k], policy: policy)
                for (seq, event) in events {
                    let start = DispatchTime.now().uptimeNanoseconds
                    engine.apply(event, seq: seq)
                    _ = engine.takeDecisions()
                    let spent = DispatchTime.now().uptimeNanoseconds - start
                    cost[event.envelope.type, default: (0, 0)].events += 1
                    cost[event.envelope.type, default: (0, 0)].nanoseconds += spent
                }
            }
            passes.append(cost)
        }
        let types = Set(passes.flatMap(\.keys))
        let median = types.map { type -> (String, Int, Double) in
            let times = passes.map { Double($0[type]?.nanoseconds ?? 0) }.sorted()
            return (type, passes[0][type]?.events ?? 0, times[times.count / 2])
        }.sorted { ($1.2, $0.0) < ($0.2, $1.0) }
        let events = Double(median.map(\.1).reduce(0, +))
        let total = median.map(\.2).reduce(0, +)
        var lines = [
            "engine time by event type: \(Int(events)) events of \(devices.count) devices, \(String(format: "%.1f", total / 1e6)) ms, \(Int(total / max(events, 1))) ns/event (one thread, median of 3)",
            "| type | events | share of events | ns/event | share of engine time |",
            "|---|---:|---:|---:|---:|",
        ]
        for (type, n, ns) in median {
            lines.append(
                "| \(type) | \(n) | \(String(format: "%.1f", Double(n) / events * 100)) % | \(Int(ns / Double(max(n, 1)))) | \(String(format: "%.1f", ns / total * 100)) % |"
            )
        }
        return lines.joined(separator: "\n")
    }

    func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
    func percentile(_ xs: [Double], _ p: Double) -> Double { xs.sorted()[min(xs.count - 1, Int(Double(xs.count) * p))] }
    func rate(_ n: Int, _ xs: [Double]) -> Int { Int(Double(n) / median(xs)) }
    func ms(_ s: Double) -> String { String(format: "%.2f", s * 1000) }

    /// The process's peak resident set (VmHWM) since it started or since the last
    /// `resetPeakResident()`, in KB.
    func peakResidentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// Sets the peak resident set to the current one (writing 5 to /proc/self/clear_refs).
    func resetPeakResident() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }
}

EngineBench.main()

/// "(target >= T: met)" or "(target >= T: NOT MET)", printed beside a figure.
func target(_ value: Double, atLeast limit: Double, _ shown: String) -> String {
    "(target >= \(shown): \(value >= limit ? "met" : "NOT MET"))"
}

/// "(target <= T: met)" or "(target <= T: NOT MET)", printed beside a figure.
func target(_ value: Double, atMost limit: Double, _ shown: String) -> String {
    "(target <= \(shown): \(value <= limit ? "met" : "NOT MET"))"
}
