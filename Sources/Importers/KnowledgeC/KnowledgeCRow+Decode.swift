import Dispatch
import Foundation
import Ledger
import SmartStack
import Synchronization

extension KnowledgeCRow {
    /// Turns rows of every stream but `/app/relevantShortcuts` into events, in row order.
    /// Many rows are converted in parallel chunks and joined in order, so the result is the
    /// same. Relevant-shortcut rows form sets across rows: `relevantShortcuts` takes them all.
    /// - Returns: how many rows yielded neither an event nor a rejection.
    static func decode(_ rows: [KnowledgeCRow], into sink: inout EventSink) -> Int {
        let chunks = rows.count < 4_096 ? 1 : max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let size = (rows.count + chunks - 1) / max(chunks, 1)
        // Parts are joined into the sink in order: only the sink itself feeds a commit.
        let context = sink.context.withoutFeed
        let parts = Mutex([(EventSink.Contents, Int)?](repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            var part = EventSink(context: context)
            part.tracksPositions = false
            let silent = decodeRows(rows[min(rows.count, c * size)..<min(rows.count, (c + 1) * size)], into: &part)
            let done = part.contents
            parts.withLock { $0[c] = (done, silent) }
        }
        var silent = 0
        for part in parts.withLock({ $0 }) {
            if let part {
                sink.append(part.0)
                silent += part.1
            }
        }
        return silent
    }

    /// Turns `rows` into events; how many yielded nothing.
    private static func decodeRows(_ rows: ArraySlice<KnowledgeCRow>, into sink: inout EventSink) -> Int {
        var silent = 0
        for row in rows {
            let before = sink.outcomes
            if let malformed = row.malformed {
                sink.reject(row.locator, "\(row.stream) row: \(malformed)")
                continue
            }
            if row.endsBeforeStart(&sink) { continue }
            switch row.stream {
            case "/app/inFocus", "/app/usage": row.foreground(&sink)
            case "/display/isBacklit": row.deviceState("backlight", &sink)
            case "/device/isLocked": row.deviceState("locked", &sink)
            case "/app/intents": row.intent(&sink)
            case "/widgets/viewed", "/dasd/widgetView": row.viewed(&sink)
            case "/dasd/widgetRefresh": row.refreshed(&sink)
            default: break
            }
            if sink.outcomes == before { silent += 1 }
        }
        return silent
    }

    private func foreground(_ sink: inout EventSink) {
        guard let app = valueString, !app.isEmpty else {
            sink.reject(locator, "\(stream) row names no app (ZVALUESTRING)")
            return
        }
        guard let t = time(start, &sink) else { return }
        sink.yield(
            .appForeground(AppForeground(duration: duration)), time: t, app: app, stream: stream, locator: locator)
    }

    private func deviceState(_ device: String, _ sink: inout EventSink) {
        guard let t = time(start, &sink) else { return }
        let value = valueInteger ?? 0
        // The duration is not one of the type's fields: it is kept as an unknown one.
        sink.yield(
            .contextChanged(ContextChanged(context: .deviceState(device), active: value == 1)), time: t,
            stream: stream, locator: locator, extras: duration.map { [JSONMember("duration", .number($0))] } ?? [])
    }

    private func intent(_ sink: inout EventSink) {
        guard let app = bundleID ?? valueString, !app.isEmpty else {
            sink.reject(locator, "/app/intents row names no app (ZSOURCE.ZBUNDLEID or ZVALUESTRING)")
            return
        }
        guard let className = intentClass, !className.isEmpty else {
            sink.reject(locator, "/app/intents row names no intent class (Z_DKINTENTMETADATAKEY__INTENTCLASS)")
            return
        }
        guard let t = time(start, &sink) else { return }
        let donation = IntentDonated(
            api: "siriKit", intent: Intent(name: className),
            donationId: derivedIntentID.flatMap { $0.isEmpty ? nil : $0 },
            groupIdentifier: groupID.flatMap { $0.isEmpty ? nil : $0 })
        // The verb and whether Siri donated are not the type's fields: kept as unknown ones.
        var extras = [JSONMember]()
        if let v = intentVerb, !v.isEmpty { extras.append(JSONMember("verb", .string(v))) }
        if let s = donatedBySiri { extras.append(JSONMember("donatedBySiri", .bool(s != 0))) }
        sink.yield(.intentDonated(donation), time: t, app: app, stream: stream, locator: locator, extras: extras)
    }

    /// `/widgets/viewed` (value: the widget's bundle id) and `/dasd/widgetView` (value: the
    /// widget's budget id; metadata `extensionBundle`, `inStack`). The store names a widget
    /// by these ids only, so they stand as its kind.
    private func viewed(_ sink: inout EventSink) {
        guard let kind = valueString, !kind.isEmpty else {
            sink.reject(locator, "\(stream) row names no widget (ZVALUESTRING)")
            return
        }
        guard customFits(Self.viewedMetadata, &sink) else { return }
        let app = custom("extensionBundle")?.string ?? bundleID ?? kind
        guard let t = time(start, &sink) else { return }
        let inStack = custom("inStack")?.integer
        let expiration = custom("expirationDelta")?.number
        let engagement = Engagement(kind: kind, duration: duration, inStack: inStack.map { $0 != 0 })
        sink.yield(
            .widgetViewed(engagement), time: t, app: app, stream: stream, locator: locator,
            extras: expiration.map { [JSONMember("expirationDelta", .number($0))] } ?? [])
    }

    /// The custom metadata `viewed` reads, with their kinds.
    static let viewedMetadata: [CustomKind] = [
        ("extensionBundle", "text", { $0.string != nil }), ("inStack", "an integer", { $0.integer != nil }),
        ("expirationDelta", "a number", { $0.number != nil }),
    ]

    /// The custom metadata `refreshed` reads, with their kinds.
    static let refreshedMetadata: [CustomKind] = [
        ("extensionBundle", "text", { $0.string != nil }),
        ("refreshReason", "text or an integer", { $0.string != nil || $0.integer != nil }),
        ("isDASInitiated", "an integer", { $0.integer != nil }),
    ]

    /// `/dasd/widgetRefresh`: value the budget id; metadata `extensionBundle`,
    /// `refreshReason`, `isDASInitiated`.
    private func refreshed(_ sink: inout EventSink) {
        guard let kind = valueString, !kind.isEmpty else {
            sink.reject(locator, "/dasd/widgetRefresh row names no widget (ZVALUESTRING)")
            return
        }
        guard customFits(Self.refreshedMetadata, &sink) else { return }
        let app = custom("extensionBundle")?.string ?? bundleID ?? kind
        guard let t = time(start, &sink) else { return }
        let reason = custom("refreshReason").map { $0.string ?? $0.integer.map(String.init) ?? "" }
        let dasInitiated = custom("isDASInitiated")?.integer
        let reload = WidgetReloaded(kind: kind, reason: reason.flatMap { $0.isEmpty ? nil : $0 })
        sink.yield(
            .widgetReloaded(reload), time: t, app: app, stream: stream, locator: locator,
            extras: dasInitiated.map { [JSONMember("isDASInitiated", .bool($0 != 0))] } ?? [])
    }

    /// `/app/relevantShortcuts`: one row per shortcut; rows of one app created at the same
    /// moment form one set.
    static func relevantShortcuts(_ rows: [KnowledgeCRow], _ sink: inout EventSink) {
        var groups = [(first: KnowledgeCRow, shortcuts: [RelevantShortcutValue])]()
        for row in rows {
            if let malformed = row.malformed {
                sink.reject(row.locator, "\(row.stream) row: \(malformed)")
                continue
            }
            guard let app = row.valueString ?? row.bundleID, !app.isEmpty else {
                sink.reject(row.locator, "/app/relevantShortcuts row names no app (ZVALUESTRING)")
                continue
            }
            guard let blob = row.serializedShortcut, !blob.isEmpty else {
                sink.reject(row.locator, "/app/relevantShortcuts row has no serialized shortcut")
                continue
            }
            let shortcut: RelevantShortcutValue
            do {
                shortcut = try RelevantShortcutValue(archive: blob[...])
            } catch {
                sink.reject(row.locator, "serialized INRelevantShortcut is unreadable: \(error.message)")
                continue
            }
            let moment = row.created ?? row.start
            if let last = groups.last, (last.first.valueString ?? last.first.bundleID) == app,
                (last.first.created ?? last.first.start) == moment
            {
                groups[groups.count - 1].shortcuts.append(shortcut)
                sink.merged(row.pk)
            } else {
                groups.append((row, [shortcut]))
            }
        }
        for g in groups {
            let column = g.first.created == nil ? "ZSTARTDATE" : "ZCREATIONDATE"
            guard let t = g.first.time(g.first.created ?? g.first.start, &sink, column: column) else { continue }
            let app = g.first.valueString ?? g.first.bundleID ?? ""
            sink.yield("shortcuts.relevantSet", time: t, app: app, stream: g.first.stream, locator: g.first.locator) {
                w in
                w.key("shortcuts")
                w.beginArray()
                for s in g.shortcuts { s.write(&w) }
                w.endArray()
            }
        }
    }
}
