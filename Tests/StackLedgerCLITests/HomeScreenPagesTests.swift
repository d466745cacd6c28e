import Foundation
import StackLedgerTesting
import Testing

/// duetexpertd's `HomeScreenPages` (forensic-sources.md §10b): alone, and within an
/// extraction beside IconState.plist.
@Suite("HomeScreenPages")
struct HomeScreenPagesTests {
    static let weather = HomeScreenPagesWriter.Widget(
        DuetExpertStoreTests.weather, kind: "com.apple.weather", app: "com.apple.weather",
        extensionBundle: "com.apple.weather.widget")
    static let photos = HomeScreenPagesWriter.Widget(
        DuetExpertStoreTests.photos, kind: "com.apple.mobileslideshow.PhotosReliveWidget",
        app: "com.apple.mobileslideshow", extensionBundle: "com.apple.mobileslideshow.PhotosReliveWidget")
    static let clock = HomeScreenPagesWriter.Widget(
        "E181372D-47EA-450D-B9F5-6CE608D0676A", kind: "com.apple.mobiletimer.datetime", app: "com.apple.mobiletimer",
        extensionBundle: "com.apple.mobiletimer.WorldClockWidget")

    func write(_ pages: [[HomeScreenPagesWriter.StackConfig]], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(HomeScreenPagesWriter.encode(pages: pages)).write(to: URL(fileURLWithPath: path))
        // duetexpertd wrote it when the layout began, inside the span of the other evidence.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_639_656_000)], ofItemAtPath: path)
    }

    @Test(
        "alone: each stack configuration is a stack, a pinned one a widget; a stack it cannot read makes it incomplete")
    func alone() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = dir.file("HomeScreenPages")
        try write(
            [
                [
                    .init("STACK-1", widgets: [Self.weather, Self.photos], smartRotate: true, newWidget: false),
                    .init("PINNED", widgets: [Self.clock], smartRotate: false, newWidget: false, size: .int(1)),
                ],
                [.init("BROKEN", widgets: [.init("X", kind: nil, app: "com.x", extensionBundle: nil)])],
            ], to: path)
        let r = CLI.call([
            "import", "homescreenpages", path, "--device", "phone", "--layout-time", "2021-11-02T09:00:00Z", "--store",
            dir.store,
        ])
        #expect(r.stdout.contains("stack BROKEN on page 2, row 0, column 0: a widget names no kind"), "\(r.stdout)")
        #expect(r.stdout.contains("stack PINNED: stackLayoutSize 1 names no size this version knows"))
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(log.contains(#""stream":"DuetExpertCenter.HomeScreenPages""#), "\(log)")
        #expect(log.contains(#""method":"recorded","complete":false"#))
        #expect(log.contains(#""smartRotate":true,"widgetSuggestions":false"#))
        #expect(log.contains(#""widgets":[{"instance":"E181372D-47EA-450D-B9F5-6CE608D0676A""#))
        let state = CLI.call([
            "state", "--store", dir.store, "--device", "phone", "--at", "2021-11-02T10:00:00Z", "--json",
        ])
        #expect(state.status == 0, "\(state.stderr)")
        #expect(state.stdout.contains(#""stack":"STACK-1""#) && !state.stdout.contains(#""stack":"BROKEN""#))
        #expect(state.stdout.contains(DuetExpertStoreTests.photos))
    }

    @Test("in an extraction it is imported beside IconState.plist, and the report says where the two differ")
    func besideIconState() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try DeviceLayoutTests().extraction(dir)
        try write(
            [
                [
                    .init("STACK-1", widgets: [Self.photos, Self.weather]),
                    .init("STACK-2", widgets: [Self.clock, Self.weather]),
                ]
            ],
            to: root + "/private/var/mobile/Library/DuetExpertCenter/CachedHomeScreenConfig/HomeScreenPages")
        let r = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\nhomescreenpages\t1\t1\t"), "\(r.stdout)")
        #expect(
            r.stdout.contains(
                "stack STACK-1: HomeScreenPages lists \(DuetExpertStoreTests.photos), \(DuetExpertStoreTests.weather); IconState.plist lists \(DuetExpertStoreTests.weather), \(DuetExpertStoreTests.photos)"
            ))
        #expect(r.stdout.contains("stack STACK-2 is in HomeScreenPages only"))
        // A layout file is present: PowerLog's records are not used to infer stacks.
        #expect(!r.stdout.contains("inferred"), "\(r.stdout)")
    }
}
