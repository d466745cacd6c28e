import Foundation
import StackLedgerTesting
import Testing

/// The examiner's page over the whole log, in Debian's Chromium: the overview and where the
/// page opens, the time axis at three zooms, drag-zoom and the keys, and the jumps from one
/// device record to the next.
@Suite("serve: the page's overview and navigation")
struct ServeNavigationTests {
    /// The bundled extraction's store, and `serve` running on it.
    static func served() throws -> (WorkDirectory, ServeTests.Running) {
        let dir = WorkDirectory()
        do {
            try ServeTests().store(dir)
            return (dir, try ServeTests.Running(["--store", dir.store]))
        } catch {
            dir.cleanup()
            throw error
        }
    }

    @Test(
        "/api/overview counts each day's events and device records, lists the records in time order, and opens on the densest day"
    )
    func overviewAPI() throws {
        let (dir, server) = try Self.served()
        defer { dir.cleanup() }
        let body = try ServeTests().python(
            "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            [server.url + "api/overview?device=phone"])
        #expect(body.status == 0, "\(body.stderr)")
        let overview = try #require(
            try JSONSerialization.jsonObject(with: Data(body.stdout.utf8)) as? [String: Any])
        let buckets = try #require(overview["buckets"] as? [[Any]])
        let records = try #require(overview["records"] as? [[String: Any]])
        let stats = try CLI.run(["stats", "--store", dir.store, "--json"])
        let statsJSON = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        let byDevice = try #require(statsJSON?["devices"] as? [String: Int])
        // Every event of the device falls in one bucket; every record is one of the device's own.
        let bucketEvents: [Int] = buckets.compactMap { $0[1] as? Int }
        let bucketRecords: [Int] = buckets.compactMap { $0[2] as? Int }
        #expect(bucketEvents.reduce(0, +) == byDevice["phone"])
        #expect(overview["events"] as? Int == byDevice["phone"])
        #expect(bucketRecords.reduce(0, +) == records.count)
        #expect(!records.isEmpty)
        // Each record lists the assumptions answers resting on it can list: the observed
        // layout here alone defines its stacks before its time, and a device's relevance
        // record is one itself.
        let assumptions = records.map { ($0["type"] as? String ?? "", $0["assumptions"] as? [String]) }
        #expect(assumptions.allSatisfy { $0.1 != nil })
        let layouts = assumptions.filter { $0.0 == "stack.layoutObserved" }
        #expect(!layouts.isEmpty && layouts.allSatisfy { $0.1?.contains("LAYOUT_ASSUMED") == true }, "\(layouts)")
        #expect(
            assumptions.filter { $0.0 == "widget.relevanceObserved" }.allSatisfy {
                $0.1 == ["RELEVANCE_FROM_DEVICE_RECORD"]
            })
        let times = records.compactMap { $0["time"] as? String }
        #expect(times == times.sorted())
        let recordTypes: Set = [
            "stack.observed", "stack.rotated", "suggestion.observed", "stack.layoutObserved",
            "widget.relevanceObserved", "widget.tapped",
        ]
        let types: [String] = records.compactMap { $0["type"] as? String }
        #expect(types.count == records.count && types.allSatisfy { recordTypes.contains($0) })
        // The page opens on the UTC day holding the most records.
        var perDay = [String: Int]()
        for t in times { perDay[String(t.prefix(10)), default: 0] += 1 }
        let densest = try #require(perDay.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key)
        #expect((overview["open"] as? String)?.hasPrefix(densest + "T00:00:00") == true, "\(overview["open"] ?? "")")
    }

    @Test(
        "the page opens on the evidence, labels its axis at three zooms, zooms by dragging and by keys, n/p land on each record in order, lists the records with their judgements, and finds events"
    )
    func pageNavigation() throws {
        let (dir, server) = try Self.served()
        defer { dir.cleanup() }
        let screenshot = Fixtures.repositoryRoot + "/.build/test-artifacts/serve-overview.png"
        try? FileManager.default.removeItem(atPath: screenshot)
        let script = #"""
            import json, re, sys, urllib.request
            from playwright.sync_api import sync_playwright
            url, screenshot = sys.argv[1:3]
            overview = json.loads(urllib.request.urlopen(url + "api/overview?device=phone").read())
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 1400})
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(url + "?device=phone")
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                # Opens on the densest day of records, with the overview's box over it.
                # The days holding a record the model disagrees with are marked on the overview.
                judgements = [json.loads(l) for l in urllib.request.urlopen(
                    url + "api/replay?device=phone&records=true&from=" + overview["first"] + "&to=2030-01-01T00:00:00Z").read().decode().split("\n") if l]
                days = {o["time"][:10] for o in judgements if o["judgement"] == "disagrees"}
                # And the buckets holding a record that answers rest on as an assumption.
                from datetime import datetime
                def ms(t): return datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()
                size = overview["bucketSeconds"]
                assuming = {int(ms(r["time"]) // size) for r in overview["records"] if r["assumptions"]}
                print(page.input_value("#from")[:16] == overview["open"][:16], page.locator("#overview .brush").count() == 1,
                      page.locator("#overview .density").count() == len(overview["buckets"]),
                      len(days) > 0 and page.locator("#overview .overview-disagreement").count() == len(days),
                      len(assuming) > 0 and page.locator("#overview .overview-assumption").count() == len(assuming))
                def texts(selector):
                    return page.locator(selector).evaluate_all("els => els.map(e => e.textContent)")
                def ticks():
                    return texts("#axis .tick")
                def settled(before):
                    # Every load stamps data-rendered, drawn or failed: a failure shows at once, not as a wait.
                    page.wait_for_function("([t]) => document.body.getAttribute('data-rendered') !== t", arg=[before], timeout=30000)
                    lanes = page.text_content("#lanes")
                    if lanes.startswith("Error: "): raise SystemExit("the page's load failed: " + lanes[:300])
                # A day: hours and minutes.
                day = ticks()
                print(len(day) >= 6 and all(re.fullmatch(r"(\d\d-\d\d )?\d\d:\d\d", t) for t in day), day[:2])
                # A week, zoomed out twice by key and once by button: dates on the axis.
                rendered = page.get_attribute("body", "data-rendered")
                page.keyboard.press("-")
                settled(rendered)
                rendered = page.get_attribute("body", "data-rendered")
                page.keyboard.press("-")
                settled(rendered)
                rendered = page.get_attribute("body", "data-rendered")
                page.click("#zoomOut")
                settled(rendered)
                week = ticks()
                print(int(page.input_value("#span")) == 8 * 86400, all(len(t) in (10, 11) for t in week), week[:2])
                # Drag across the lanes from a quarter to a half: the view is that range, to the second.
                box = page.locator("#lanes").bounding_box()
                left, width = box["x"] + 110, 1000 - 110
                rendered = page.get_attribute("body", "data-rendered")
                page.mouse.move(left + width * 0.25, box["y"] + 20)
                page.mouse.down()
                page.mouse.move(left + width * 0.40, box["y"] + 20, steps=5)
                page.mouse.move(left + width * 0.50, box["y"] + 20, steps=5)
                page.mouse.up()
                settled(rendered)
                print(abs(int(page.input_value("#span")) - 2 * 86400) <= 120)
                # Zoomed to minutes: the axis shows times, and seconds once under a minute a tick.
                rendered = page.get_attribute("body", "data-rendered")
                page.evaluate("() => { setView(Date.parse(document.getElementById('from').value + 'Z'), 120); load(); }")
                settled(rendered)
                short = ticks()
                print(len(short) >= 4 and all(re.fullmatch(r"(\d\d-\d\d )?\d\d:\d\d:\d\d", t) for t in short), short[:2])
                # What the page shows, written to standard error before each wait below (shown
                # only should the test fail).
                def shown(step):
                    state = {k: page.evaluate("(k) => { const e = document.querySelector(k); return e ? (e.getAttribute('data-seq') || '') + ' ' + e.textContent.slice(0, 160) : null; }", k)
                             for k in ("#evidence", "#lanes", "#cursorTime")}
                    sys.stderr.write(step + ": " + json.dumps(state | {"from": page.input_value("#from"), "rendered": page.get_attribute("body", "data-rendered"), "errors": errors}) + "\n")
                # n from before the first record, then p: each lands on its record, centred, with its why.
                first = overview["records"][0]
                rendered = page.get_attribute("body", "data-rendered")
                page.evaluate("(t) => { setView(Date.parse(t) - 86400000, 86400); load(); }", overview["first"])
                shown("before the first record")
                settled(rendered)
                page.locator("#cursor").fill("0")
                page.wait_for_function("() => document.getElementById('cursorTime').textContent !== ''")
                page.focus("body")
                landed = []
                for _ in range(min(3, len(overview["records"]))):
                    shown("n")
                    # Read before the key: a jump that lands before the read would leave nothing to wait for.
                    before = page.get_attribute("#evidence", "data-seq")
                    page.keyboard.press("n")
                    page.wait_for_function("(s) => document.getElementById('evidence').getAttribute('data-seq') !== s",
                                           arg=before, timeout=30000)
                    landed.append(int(page.get_attribute("#evidence", "data-seq")))
                page.locator("#why", has_text="Why at").wait_for(timeout=30000)
                print(landed == [r["seq"] for r in overview["records"][:len(landed)]], landed)
                page.keyboard.press("p")
                page.wait_for_function("(s) => document.getElementById('evidence').getAttribute('data-seq') !== s",
                                       arg=str(landed[-1]), timeout=30000)
                print(len(landed) < 2 or int(page.get_attribute("#evidence", "data-seq")) == landed[-2])
                # Tooltips on spans name the widget and its times; context lanes are in words.
                titles = texts("#lanes svg .span title")
                # A device record's mark says its judgement and the artifact it was read from.
                marks = texts("#lanes svg .record title")
                print(all(" to " in t and "(" in t for t in titles) and len(marks) > 0
                      and all("\njudged: " in t and "\nfrom " in t and "SHA-256 " in t for t in marks)
                      and any("judged: not judged" not in t for t in marks))
                print(not any(t.startswith("{") for t in texts("#lanes .context-label")))
                # The records beside the lanes: one per record, each judged, in the overview's order;
                # a click lands on it.
                listed = page.locator("#records a").evaluate_all("els => els.map(e => [Number(e.dataset.seq), e.textContent])")
                judged = {o["event"]: o["judgement"] for o in map(json.loads, filter(None, urllib.request.urlopen(
                    url + "api/replay?device=phone&records=true&from=" + overview["first"] + "&to=2030-01-01T00:00:00Z").read().decode().split("\n")))}
                assumes = {r["seq"]: r["assumptions"] for r in overview["records"]}
                def judgement(q, text):
                    clause = "; answers resting on it assume " + ", ".join(assumes[q]) if assumes[q] else ""
                    return text.endswith(": " + judged.get(q, "not judged") + clause)
                print([q for q, _ in listed] == [r["seq"] for r in overview["records"]],
                      all(judgement(q, text) for q, text in listed), len(judged) > 0)
                last = overview["records"][-1]
                page.locator("#records a[data-seq='%d']" % last["seq"]).click()
                page.wait_for_function("(s) => document.getElementById('evidence').getAttribute('data-seq') === s", arg=str(last["seq"]), timeout=30000)
                print(page.locator("#records li[aria-current]").count() == 1)
                page.locator("#why", has_text="Why at").wait_for(timeout=30000)
                # An assumption names the event it rests on with that event's date; a stack's name
                # lists the kinds on its top.
                page.locator("#assumptions", has_text="resting on event").wait_for(timeout=30000)
                assumed = page.inner_text("#assumptions")
                names = texts("#lanes .stack-name title")
                print(bool(re.search(r"resting on event \d+ of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d", assumed)), len(names) > 0 and all("): " in n for n in names))
                page.screenshot(path=screenshot, full_page=True)
                # Search by kind: every event found names it; a click centres the view on the event.
                page.fill("#search", "com.apple.weather")
                page.press("#search", "Enter")
                page.wait_for_selector("#found a", timeout=30000)
                found = page.locator("#found a").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
                events = [json.loads(l) for l in urllib.request.urlopen(url + "api/events?device=phone&limit=10000").read().decode().split("\n") if l]
                naming = [e["seq"] for e in events if "com.apple.weather" in json.dumps(e)]
                print(set(found) <= set(naming) and len(found) > 0, len(found), len(naming))
                target = found[-1]
                page.locator("#found a[data-seq='%d']" % target).click()
                page.wait_for_function("(s) => document.getElementById('evidence').getAttribute('data-seq') === s", arg=str(target), timeout=30000)
                at = next(e["time"] for e in events if e["seq"] == target)
                shown = ms(page.inner_text("#cursorTime"))
                span = int(page.input_value("#span"))
                print(abs(shown - ms(at)) <= span / 1000 + 1)
                page.fill("#search", "12345678")
                page.press("#search", "Enter")
                page.locator("#found li", has_text="no event of this device").wait_for(timeout=30000)
                print(True)
                print(errors)
                browser.close()
            """#
        let r = try ServeTests().python(script, [server.url, screenshot])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 16, "\(r.stdout)\(r.stderr)")
        #expect(out[0] == "True True True True True", "opening: \(out[0])")
        #expect(out[1].hasPrefix("True"), "a day's axis: \(out[1])")
        #expect(out[2].hasPrefix("True True"), "a week's axis: \(out[2])")
        #expect(out[3] == "True", "drag-zoom")
        #expect(out[4].hasPrefix("True"), "two minutes' axis: \(out[4])")
        #expect(out[5].hasPrefix("True"), "n: \(out[5])")
        #expect(out[6] == "True", "p")
        #expect(out[7] == "True", "span and record tooltips")
        #expect(out[8] == "True", "context lanes in words")
        #expect(out[9] == "True True True", "the records list: \(out[9])")
        #expect(out[10] == "True", "a record clicked is marked")
        #expect(out[11] == "True True", "an assumption's date, a stack's kinds: \(out[11])")
        #expect(out[12].hasPrefix("True"), "search: \(out[12])")
        #expect(out[13] == "True", "a found event clicked is centred")
        #expect(out[14] == "True", "a search that finds nothing says so")
        #expect(out[15] == "[]", "page errors: \(out[15])")
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }

    @Test("axe-core finds no serious or critical violation, and every control is reached by Tab with a visible focus")
    func accessible() throws {
        let (dir, server) = try Self.served()
        defer { dir.cleanup() }
        let script = #"""
            import sys
            from playwright.sync_api import sync_playwright
            from axe_playwright_python.sync_playwright import Axe
            url = sys.argv[1]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 1200})
                page.goto(url + "?device=phone")
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                page.keyboard.press("n")
                page.wait_for_selector("#evidence[data-seq]", timeout=30000)
                page.locator("#why", has_text="Why at").wait_for(timeout=30000)
                found = Axe().run(page).response["violations"]
                print(sorted(v["id"] + ":" + v["impact"] for v in found if v["impact"] in ("serious", "critical")))
                # Tab through the page: each control takes the focus in turn, drawn with an outline.
                reached, unmarked = set(), []
                for _ in range(120):
                    page.keyboard.press("Tab")
                    focus = page.evaluate("""() => { const e = document.activeElement;
                        const s = getComputedStyle(e); return [e.id || e.tagName, s.outlineStyle !== "none" && s.outlineWidth !== "0px"]; }""")
                    reached.add(focus[0])
                    if not focus[1] and focus[0] != "BODY": unmarked.append(focus[0])
                controls = ["device", "from", "span", "earlier", "later", "knownAt", "prevRecord", "nextRecord", "zoomIn", "zoomOut", "fit", "utc", "search", "cursor"]
                print([c for c in controls if c not in reached], unmarked)
                browser.close()
            """#
        let r = try ServeTests().python(script, [server.url])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 2, "\(r.stdout)\(r.stderr)")
        #expect(out[0] == "[]", "axe: \(out[0])")
        #expect(out[1] == "[] []", "keyboard: \(out[1])")
    }
}
