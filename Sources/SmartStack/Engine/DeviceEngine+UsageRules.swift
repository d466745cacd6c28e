import RecordFormat

// What the person used (docs/events.md): intent donations and their deletion, apps brought
// to the foreground. One `apply` per event type.
extension DeviceEngine {
    /// `intent.donated`: a usage record of the hour, with the parameters the donation
    /// predicts (D1).
    mutating func apply(_ donation: IntentDonated, seq: UInt64, app: String) -> Work {
        var predicted = [String: String]()
        if let names = donation.predictionParameters {
            // Only the predicted ones are rendered (the last member of a name counts).
            let members = donation.intent.parameters ?? []
            for name in names {
                predicted[name] =
                    members.last { $0.key == name }.map { CanonicalWriter.text(of: $0.value) } ?? "null"
            }
        } else {
            predicted = parameterMap(donation.intent.parameters)
        }
        let now = state.now
        let hour = state.clock.hour(at: now)
        appendUsage(
            UsageRecord(
                time: now, hour: hour, seq: seq, app: app, intent: donation.intent.name,
                parameters: predicted, donationId: donation.donationId, groupIdentifier: donation.groupIdentifier))
        return .all
    }

    /// `app.foreground`: a usage record of the hour, when the policy counts app use.
    mutating func apply(_ foreground: AppForeground, seq: UInt64, app: String) -> Work {
        guard parameters.usageCountsAppForeground else { return .none }
        let now = state.now
        let hour = state.clock.hour(at: now)
        appendUsage(UsageRecord(time: now, hour: hour, seq: seq, app: app, intent: nil, parameters: [:]))
        return .all
    }

    /// `donations.deleted`: the app's donations it names stop counting from now on.
    mutating func apply(_ deletion: DonationsDeleted, seq: UInt64, app: String) -> Work {
        for hour in 0..<24 {
            for index in state.usage[hour].indices
            where state.usage[hour][index].app == app && state.usage[hour][index].intent != nil
                && state.usage[hour][index].deletedBy == nil
            {
                let usage = state.usage[hour][index]
                let hit: Bool
                switch deletion {
                case .donationIds(let ids): hit = usage.donationId.map(ids.contains) ?? false
                case .intent(let name): hit = usage.intent == name
                case .groupIdentifier(let group): hit = usage.groupIdentifier == group
                case .all: hit = true
                }
                if hit {
                    state.usage[hour][index].deletedBy = seq
                    noteUsageDeleted(hour: hour, time: usage.time)
                }
            }
        }
        state.usageChanged = true
        return .all
    }

    /// Appends a usage record to its hour (the usage cache, brought up to now, takes it in
    /// instead of being rebuilt), drops what left the window, and wakes at the next hour.
    private mutating func appendUsage(_ record: UsageRecord) {
        refreshUsage()
        state.usage[record.hour].append(record)
        state.usageChanged = true
        noteUsageAppended(hour: record.hour, time: record.time)
        pruneUsage(record.hour)
        schedule(state.clock.nextHour(after: record.time))
    }

    /// Drops the usage records of hour `h` that are older than the pattern window.
    mutating func pruneUsage(_ h: Int) {
        let horizon = state.now - patternWindowMicros
        guard let first = state.usage[h].first, first.time < horizon else { return }
        // Every record that left the window goes, so that the bucket depends only on the
        // window's records and not on when earlier ones were dropped.
        let old = state.usage[h].prefix { $0.time < horizon }.count
        noteUsageLeaving(hour: h, count: old)
        state.usage[h].removeFirst(old)
        state.usageChanged = true
        noteUsagePruned(hour: h, count: old)
    }
}
