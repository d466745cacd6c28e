package import Ledger
package import SmartStack

/// Writes `"check"`: what the quick check covered (`kind`, `fromSeq`, `toSeq`).
package func writeCheck(_ w: inout CanonicalWriter, ledger: Ledger) throws {
    let scope = try ledger.quickCheckScope()
    w.key("check")
    w.beginObject()
    w.key("kind")
    w.string("quick")
    w.key("fromSeq")
    if let s = scope { w.integer(Int(s.lowerBound)) } else { w.null() }
    w.key("toSeq")
    if let s = scope { w.integer(Int(s.upperBound)) } else { w.null() }
    w.endObject()
}
