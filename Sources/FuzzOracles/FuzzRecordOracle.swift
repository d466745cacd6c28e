import Ledger
import SmartStack

/// The oracle of `FuzzRecord`, run by libFuzzer and by the tests on the kept corpus.
/// Bytes decoded as a stored record and its event payload, against a
/// small string table. Errors are expected; crashes are not.
public func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let strings = [
        "default", "widget.timeline", "com.example.cards", "CardWidget", "w1", "home-1", "stack.created", "iOS",
        "systemSmall", "context.changed",
    ]
    _ = try? RecordView.decodeUnchecked(UnsafeRawBufferPointer(start: data, count: size), strings: strings) { view in
        let event = try Event(record: view)
        var w = CanonicalWriter()
        event.writeCanonical(&w)
        _ = view.indexKeys
    }
    return 0
}
