import Ledger
import SmartStack

extension BiomeStream {
    /// App.Intent: field 2 the bundle id, 4 the intent class, 5 the verb, 8 an
    /// NSKeyedArchiver INInteraction (`dateInterval`, `identifier`, `groupIdentifier`,
    /// `direction`, `_donatedBySiri`). The intent's own parameters are app-specific
    /// protobuf without a schema and are not read.
    func decodeAppIntent(_ records: [BiomeRecord], into sink: inout EventSink) {
        for r in records {
            guard let m = message(r, &sink) else { continue }
            guard let app = m.string(2), !app.isEmpty else {
                sink.reject(r.locator, "App.Intent record has no bundle id (field 2)")
                continue
            }
            var interaction: ArchivedValue?
            if let archive = m.bytes(8), !archive.isEmpty {
                do {
                    interaction = try KeyedArchiveReader(archive).root
                } catch {
                    sink.reject(r.locator, "INInteraction archive (field 8) is unreadable: \(error.message)")
                    continue
                }
            }
            guard let className = m.string(4) ?? interaction?["intent"]?.className, !className.isEmpty else {
                sink.reject(r.locator, "App.Intent record names no intent class (field 4)")
                continue
            }
            let start = interaction?["dateInterval"]?["NS.startDate"]?.cocoaTime
            guard let t = time(start, r, &sink) else { continue }
            let identifier = interaction?["identifier"]?.string
            let group = interaction?["groupIdentifier"]?.string
            let verb = m.string(5)
            let direction = interaction?["direction"]?.integer
            let bySiri = interaction?["_donatedBySiri"]?.integer
            sink.yield("intent.donated", time: t, app: app, stream: rawValue, locator: r.locator) { w in
                w.key("api")
                w.string("siriKit")
                w.key("intent")
                w.beginObject()
                w.key("intent")
                w.string(className)
                w.endObject()
                if let identifier, !identifier.isEmpty {
                    w.key("donationId")
                    w.string(identifier)
                }
                if let group, !group.isEmpty {
                    w.key("groupIdentifier")
                    w.string(group)
                }
                if let verb, !verb.isEmpty {
                    w.key("verb")
                    w.string(verb)
                }
                if let direction {
                    w.key("direction")
                    w.integer(Int(direction))
                }
                if let bySiri {
                    w.key("donatedBySiri")
                    w.bool(bySiri != 0)
                }
            }
        }
    }

    /// App.Intents.Transcript: field 1 the bundle id, 4 the time (Unix seconds as a
    /// double), 5 (or 6) the intent {1 class, repeated 7 parameter {1 name, 2.3.1.1 title}}.
    func decodeTranscript(_ records: [BiomeRecord], into sink: inout EventSink) {
        for r in records {
            guard let m = message(r, &sink) else { continue }
            guard let app = m.string(1), !app.isEmpty else {
                sink.reject(r.locator, "App.Intents.Transcript record has no bundle id (field 1)")
                continue
            }
            guard let intent = m.message(5) ?? m.message(6), let className = intent.string(1), !className.isEmpty else {
                sink.reject(r.locator, "App.Intents.Transcript record has no intent (field 5.1 or 6.1)")
                continue
            }
            let unix = m.double(4)
            guard let t = unix.flatMap({ Timestamp.unixSeconds($0) }) ?? Timestamp.cocoaSeconds(r.record.cocoaTime)
            else {
                sink.reject(r.locator, "App.Intents.Transcript time is outside 1970-2200")
                continue
            }
            var parameters = [(String, String)]()
            for slot in intent.messages(7) {
                guard let name = slot.string(1), !name.isEmpty, !parameters.contains(where: { $0.0 == name }) else {
                    continue
                }
                if let title = slot.message(path: [2, 3, 1])?.string(1) { parameters.append((name, title)) }
            }
            sink.yield("intent.donated", time: t, app: app, stream: rawValue, locator: r.locator) { w in
                w.key("api")
                w.string("appIntents")
                w.key("intent")
                w.beginObject()
                w.key("intent")
                w.string(className)
                if !parameters.isEmpty {
                    w.key("parameters")
                    w.beginObject()
                    for (k, v) in parameters.prefix(64) {
                        w.key(k)
                        w.string(v)
                    }
                    w.endObject()
                }
                w.endObject()
            }
        }
    }

    /// App.RelevantShortcuts: field 1 the bundle id, 3 an NSKeyedArchiver INRelevantShortcut
    /// (`widgetKind`, `shortcutRole`, `shortcut.intent`, `relevanceProviders`). One call to
    /// setRelevantShortcuts writes one record per shortcut at the same time, so records of
    /// one app with the same time form one `shortcuts.relevantSet`.
    func decodeRelevantShortcuts(_ records: [BiomeRecord], into sink: inout EventSink) {
        struct Group {
            var first: BiomeRecord
            var app: String
            var shortcuts: [RelevantShortcutValue]
        }
        var groups = [Group]()
        for r in records {
            guard let m = message(r, &sink) else { continue }
            guard let app = m.string(1), !app.isEmpty else {
                sink.reject(r.locator, "App.RelevantShortcuts record has no bundle id (field 1)")
                continue
            }
            guard let archive = m.bytes(3) else {
                sink.reject(r.locator, "App.RelevantShortcuts record has no shortcut archive (field 3)")
                continue
            }
            let shortcut: RelevantShortcutValue
            do {
                shortcut = try RelevantShortcutValue(archive: archive)
            } catch {
                sink.reject(r.locator, "INRelevantShortcut archive (field 3) is unreadable: \(error.message)")
                continue
            }
            if let last = groups.last, last.app == app, last.first.record.cocoaTime == r.record.cocoaTime {
                groups[groups.count - 1].shortcuts.append(shortcut)
                sink.merged(r.locator.position)
            } else {
                groups.append(Group(first: r, app: app, shortcuts: [shortcut]))
            }
        }
        for g in groups {
            guard let t = time(nil, g.first, &sink) else { continue }
            sink.yield("shortcuts.relevantSet", time: t, app: g.app, stream: rawValue, locator: g.first.locator) { w in
                w.key("shortcuts")
                w.beginArray()
                for s in g.shortcuts { s.write(&w) }
                w.endArray()
            }
        }
    }
}
