import Ledger
import SmartStack

/// A live record's payload, ready for a stream decoder.
struct BiomeRecord {
    var record: SEGBRecord
    var payload: ArraySlice<UInt8>

    var locator: Locator { Locator(Int64(record.offset)) }
}

extension BiomeStream {
    /// Turns the live records of one file of this stream into events.
    func decode(_ records: [BiomeRecord], into sink: inout EventSink) {
        switch self {
        case .lowPowerMode: decodeDeviceState(records, "lowPower", into: &sink)
        case .trueTone: decodeDeviceState(records, "trueTone", into: &sink)
        case .screenLocked: decodeDeviceState(records, "locked", into: &sink)
        case .backlight: decodeBacklight(records, into: &sink)
        case .inFocus: decodeInFocus(records, into: &sink)
        case .appIntent: decodeAppIntent(records, into: &sink)
        case .appIntentsTranscript: decodeTranscript(records, into: &sink)
        case .relevantShortcuts: decodeRelevantShortcuts(records, into: &sink)
        case .locationVisit: decodeVisit(records, into: &sink)
        }
    }

    /// Parses a record's payload as protobuf, or rejects the record.
    func message(_ r: BiomeRecord, _ sink: inout EventSink) -> ProtobufMessage? {
        do {
            return try ProtobufMessage(r.payload)
        } catch {
            sink.reject(r.locator, "payload is not protobuf: \(error.message) at byte \(error.offset)")
            return nil
        }
    }

    func time(_ cocoa: Double?, _ r: BiomeRecord, _ sink: inout EventSink) -> Timestamp? {
        guard let t = Timestamp.cocoaSeconds(cocoa ?? r.record.cocoaTime) else {
            sink.reject(r.locator, "time \(cocoa ?? r.record.cocoaTime) (Cocoa seconds) is outside 1970-2200")
            return nil
        }
        return t
    }

    /// Device.Power.LowPowerMode, Device.Display.TrueTone, Device.ScreenLocked: field 1 is
    /// the state (0 off; protobuf omits a zero).
    private func decodeDeviceState(_ records: [BiomeRecord], _ device: String, into sink: inout EventSink) {
        for r in records {
            guard let m = message(r, &sink), let t = time(nil, r, &sink) else { continue }
            let value = m.integer(1) ?? 0
            sink.yield("context.changed", time: t, stream: rawValue, locator: r.locator) { w in
                w.key("context")
                w.beginObject()
                w.key("device")
                w.string(device)
                w.endObject()
                w.key("active")
                w.bool(value != 0)
                if value != 0 && value != 1 {
                    w.key("biomeValue")
                    w.integer(Int(value))
                }
            }
        }
    }

    /// Device.Display.Backlight: field 1 the time (Cocoa), field 2 the backlight state.
    /// State 1 is read as lit and every other value as not lit (inferred from samples);
    /// the raw state is kept as `backlightState`.
    private func decodeBacklight(_ records: [BiomeRecord], into sink: inout EventSink) {
        for r in records {
            guard let m = message(r, &sink), let t = time(m.double(1), r, &sink) else { continue }
            let state = m.integer(2) ?? 0
            sink.yield("context.changed", time: t, stream: rawValue, locator: r.locator) { w in
                w.key("context")
                w.beginObject()
                w.key("device")
                w.string("backlight")
                w.endObject()
                w.key("active")
                w.bool(state == 1)
                w.key("backlightState")
                w.integer(Int(state))
            }
        }
    }

    /// App.InFocus: field 6 the bundle id, 4 the start (Cocoa), 3 1 = foreground,
    /// 0 = background. A foreground record becomes `app.foreground`, with the duration up
    /// to the same app's next background record in the file; background records only
    /// close intervals.
    private func decodeInFocus(_ records: [BiomeRecord], into sink: inout EventSink) {
        struct Open {
            var record: BiomeRecord
            var bundle: String
            var start: Double
            var time: Timestamp
            var version: String?
        }
        var parsed = [(r: BiomeRecord, bundle: String, start: Double, foreground: Bool, version: String?)]()
        for r in records {
            guard let m = message(r, &sink) else { continue }
            guard let bundle = m.string(6), !bundle.isEmpty else {
                sink.reject(r.locator, "App.InFocus record has no bundle id (field 6)")
                continue
            }
            parsed.append((r, bundle, m.double(4) ?? r.record.cocoaTime, (m.integer(3) ?? 0) == 1, m.string(9)))
        }
        parsed.sort { ($0.start, $0.r.record.offset) < ($1.start, $1.r.record.offset) }
        var open = [String: Open]()
        var finished = [(Open, Double?)]()
        for p in parsed {
            if p.foreground {
                if let previous = open[p.bundle] { finished.append((previous, nil)) }
                guard let t = time(p.start, p.r, &sink) else { continue }
                open[p.bundle] = Open(record: p.r, bundle: p.bundle, start: p.start, time: t, version: p.version)
            } else if let o = open.removeValue(forKey: p.bundle) {
                finished.append((o, max(0, p.start - o.start)))
            }
        }
        finished += open.values.map { ($0, nil) }
        finished.sort { $0.0.record.record.offset < $1.0.record.record.offset }
        for (o, duration) in finished {
            sink.yield("app.foreground", time: o.time, app: o.bundle, stream: rawValue, locator: o.record.locator) {
                w in
                if let duration {
                    w.key("duration")
                    w.number(duration)
                }
                if let v = o.version {
                    w.key("appVersion")
                    w.string(v)
                }
            }
        }
    }

    /// Location.Visit: field 3 the coordinate {1 latitude, 2 longitude, 3 horizontal
    /// accuracy}, 4 arrival and 5 departure (Cocoa). Arrival and departure each become a
    /// `context.changed` for a region centred on the visit.
    private func decodeVisit(_ records: [BiomeRecord], into sink: inout EventSink) {
        for r in records {
            guard let m = message(r, &sink) else { continue }
            guard let c = m.message(3), let lat = c.double(1), let lon = c.double(2),
                (-90...90).contains(lat), (-180...180).contains(lon)
            else {
                sink.reject(r.locator, "Location.Visit record has no valid coordinate (field 3.1, 3.2)")
                continue
            }
            let radius = max(c.double(3) ?? 100, 1)
            let place = m.message(path: [8, 5])?.string(2)
            func write(_ w: inout CanonicalWriter, active: Bool) {
                w.key("context")
                w.beginObject()
                w.key("location")
                w.beginObject()
                w.key("region")
                w.beginObject()
                w.key("latitude")
                w.number(lat)
                w.key("longitude")
                w.number(lon)
                w.key("radius")
                w.number(radius)
                w.endObject()
                w.endObject()
                w.endObject()
                w.key("active")
                w.bool(active)
                if let place {
                    w.key("placeName")
                    w.string(place)
                }
            }
            if let arrival = m.double(4), let t = time(arrival, r, &sink) {
                sink.yield(
                    "context.changed", time: t, stream: rawValue,
                    locator: Locator(Int64(r.record.offset), part: "arrival")
                ) { write(&$0, active: true) }
            }
            // Departure of a visit still under way is Apple's distant future.
            if let departure = m.double(5), departure < 4_000_000_000, let t = time(departure, r, &sink) {
                sink.yield(
                    "context.changed", time: t, stream: rawValue,
                    locator: Locator(Int64(r.record.offset), part: "departure")
                ) { write(&$0, active: false) }
            }
        }
    }
}
