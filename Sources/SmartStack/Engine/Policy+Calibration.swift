/// What a fitted policy was fitted on, as its file's `calibration` object records it
/// (docs/queries.md, "calibrate"): answers made with it say so beside its name.
public struct PolicyCalibration: Sendable, Hashable {
    /// The device whose records the parameters were fitted to.
    public var device: String
    /// The digest of the policy the search started from.
    public var fromDigest: String
    /// The parameters searched.
    public var fitted: [String]
    /// Whether the search converged within its budget.
    public var converged: Bool
    /// The records held out of the fit that the fitted model agrees with, and those it
    /// judged; nil when the file does not say.
    public var heldOut: (agrees: Int, judged: Int)?

    /// The calibration a policy file's `calibration` object records; nil when it is not one.
    init?(json: [String: Any]) {
        guard let device = json["device"] as? String, let fromDigest = json["fromDigest"] as? String else {
            return nil
        }
        self.device = device
        self.fromDigest = fromDigest
        self.fitted = json["fitted"] as? [String] ?? []
        self.converged = json["converged"] as? Bool ?? false
        let agreement = (json["agreement"] as? [String: Any])?["afterHeldOut"] as? [String: Any]
        if let agrees = agreement?["agrees"] as? Int, let judged = agreement?["judged"] as? Int {
            heldOut = (agrees, judged)
        }
    }

    public static func == (a: PolicyCalibration, b: PolicyCalibration) -> Bool {
        (a.device, a.fromDigest, a.fitted, a.converged) == (b.device, b.fromDigest, b.fitted, b.converged)
            && a.heldOut?.agrees == b.heldOut?.agrees && a.heldOut?.judged == b.heldOut?.judged
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(fromDigest)
        hasher.combine(fitted)
    }
}
