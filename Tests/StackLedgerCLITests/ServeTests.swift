import Foundation
import StackLedgerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stackledger serve`: the API answers with the CLI's JSON, refuses what it must, and the
/// page renders in Debian's Chromium, driven by Playwright.
@Suite("serve", .serialized)
struct ServeTests {
    /// A running server: its process and the address it printed.
    final class Running {
        let process = Process()
        var url = ""

        init(_ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: CLI.executable)
            process.arguments = ["serve", "--port", "0"] + arguments
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var seen = ""
            let handle = errors.fileHandleForReading
            while !seen.contains("serving ") || !seen.hasSuffix("\n") {
                let data = handle.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
            }
            guard let range = seen.range(of: #"https?://[^ \n]+/"#, options: .regularExpression) else {
                throw CLIError(message: "serve did not start: \(seen)")
            }
            url = String(seen[range])
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
        }
    }

    struct CLIError: Error { var message: String }

    /// The extraction and scenario store of the timeline tests.
    func store(_ dir: WorkDirectory) throws { try TimelineExportTests().store(dir) }

    func python(_ script: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(executable: ExportProjectionTests.python, ["-c", script] + arguments)
    }

    /// What the API answers, route by route, is tested in-process (ServeRouteTests); here the
    /// served port: an answer over HTTP, and another process's commit seen by the next request.
    @Test("served over HTTP, the API answers, and another process's ingest shows in the next request")
    func api() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running(["--store", dir.store])
        let devices = """
            import json, sys, urllib.request
            with urllib.request.urlopen(sys.argv[1] + "api/devices") as r: print(r.status, [d["device"] for d in json.load(r)["devices"]])
            """
        let before = try python(devices, [server.url])
        #expect(before.stdout == "200 ['phone', 'default']\n", "\(before.stdout)\(before.stderr)")
        let late =
            #"{"type":"device.info","time":"2026-03-03T00:00:00Z","device":"late","platform":"iOS","osVersion":"26.1"}"#
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: late + "\n").status == 0)
        let after = try python(devices, [server.url])
        #expect(after.stdout == "200 ['phone', 'default', 'late']\n", "\(after.stdout)\(after.stderr)")
    }

    @Test("a store that fails its quick check while served answers 503 in the API's error shape")
    func damagedStore() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let server = try Running(["--store", dir.store])
        // Flip one bit of the newest record through LMDB, as a forger would.
        try StoreForgery.flipBit(inRecord: 6, store: dir.store)
        let r = try python(
            """
            import json, sys, urllib.request, urllib.error
            try: urllib.request.urlopen(sys.argv[1] + "api/state?at=2026-03-02T09:45:00Z")
            except urllib.error.HTTPError as e: print(e.code, json.load(e)["error"]["code"])
            """, [server.url])
        #expect(r.stdout == "503 store-unavailable\n", "\(r.stdout)\(r.stderr)")
    }

    @Test("off loopback, serving needs TLS and a token; with a token, requests need it, and ?token= becomes a cookie")
    func tokens() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let refused = try CLI.run(["serve", "--store", dir.store, "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 64 && refused.stderr.contains("--tls-cert"), "\(refused.stderr)")
        let token = "a-token-of-enough-length"
        let server = try Running(["--store", dir.store], environment: ["STACKLEDGER_TOKEN": token])
        let script = """
            import sys, urllib.request, urllib.error, http.cookiejar
            base, token = sys.argv[1], sys.argv[2]
            def status(opener, path, headers={}):
                try:
                    with opener.open(urllib.request.Request(base + path, headers=headers)) as r: return r.status
                except urllib.error.HTTPError as e: return e.code
            plain = urllib.request.build_opener()
            print(status(plain, "api/devices"), status(plain, "api/devices", {"Authorization": "Bearer " + token}), status(plain, "api/devices", {"Authorization": "Bearer wrong-token-wrong-token"}))
            jar = http.cookiejar.CookieJar()
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            print(status(browser, "?token=" + token), status(browser, "api/devices"), [c.name for c in jar], [c.has_nonstandard_attr("HttpOnly") for c in jar])
            """
        let r = try python(script, [server.url, token])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "401 200 401\n200 200 ['stackledger_session'] [True]\n", "\(r.stdout)")
    }

    @Test(
        "with TLS and a token it listens beyond loopback, and answers over HTTPS to a client that checks the certificate"
    )
    func tls() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let (cert, key) = (dir.file("cert.pem"), dir.file("key.pem"))
        let made = try CLI.run(
            executable: "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let tokenFile = try dir.write("token", "a-token-of-enough-length\n")
        // A token other users can read is refused, naming its mode, as ssh refuses such a key.
        let shared = try CLI.run([
            "serve", "--store", dir.store, "--host", "0.0.0.0", "--tls-cert", cert, "--tls-key", key, "--token-file",
            tokenFile,
        ])
        #expect(shared.status == 64 && shared.stderr.contains("its mode is 644"), "\(shared.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        let server = try Running([
            "--store", dir.store, "--host", "0.0.0.0", "--tls-cert", cert, "--tls-key", key, "--token-file", tokenFile,
        ])
        #expect(server.url.hasPrefix("https://0.0.0.0:"), "\(server.url)")
        let port = server.url.split(separator: ":").last.map { String($0.dropLast()) } ?? ""
        let script = """
            import ssl, sys, urllib.request, urllib.error
            context = ssl.create_default_context(cafile=sys.argv[2])
            def status(headers):
                try:
                    with urllib.request.urlopen(urllib.request.Request(sys.argv[1], headers=headers), context=context) as r: return r.status
                except urllib.error.HTTPError as e: return e.code
            print(status({}), status({"Authorization": "Bearer a-token-of-enough-length"}))
            """
        let r = try python(script, ["https://127.0.0.1:\(port)/api/devices", cert])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "401 200\n", "\(r.stdout)")
    }

    @Test(
        "another process's commit is pushed: /api/commits tells the new sequence number, and the open page redraws and lists the new device"
    )
    func liveRefresh() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running(["--store", dir.store])
        let late =
            #"{"type":"device.info","time":"2026-03-03T00:00:00Z","device":"late","platform":"iOS","osVersion":"26.1"}"#
        let script = """
            import subprocess, sys, urllib.request
            from playwright.sync_api import sync_playwright
            url, cli, store, line = sys.argv[1:5]
            def ingest(text):
                subprocess.run([cli, "ingest", "--store", store, "-"], input=text, text=True, check=True, capture_output=True)
            def commits(stream):
                # The data of each `commit` event, as the stream sends them.
                for raw in stream:
                    text = raw.decode().strip()
                    if text.startswith("data: "): yield text[len("data: "):]
            with urllib.request.urlopen(url + "api/commits", timeout=30) as stream:
                print(stream.headers["Content-Type"])
                told = commits(stream)
                first = next(told)
                ingest(line + "\\n")
                print(first, next(told))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page()
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(url)
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                print(page.get_attribute("body", "data-rendered").isdigit(), page.inner_text("#live") == "")
                ingest(line.replace('"late"', '"later"') + "\\n")
                page.wait_for_selector("#live[data-seq]", timeout=30000)
                print(page.get_attribute("#live", "data-seq"), "later" in page.locator("#device option").all_inner_texts())
                print(errors)
                browser.close()
            """
        let before = try CLI.run(["stats", "--store", dir.store, "--json"])
        let events = try #require(
            (try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])?["events"] as? Int)
        let r = try python(script, [server.url, CLI.executable, dir.store, late])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 5, "\(r.stdout)\(r.stderr)")
        #expect(out[0] == "text/event-stream")
        #expect(out[1] == #"{"lastSeq":\#(events)} {"lastSeq":\#(events + 1)}"#, "\(out[1])")
        #expect(out[2] == "True True", "\(out[2])")
        #expect(out[3] == "\(events + 2) True", "\(out[3])")
        #expect(out[4] == "[]", "\(out[4])")
    }

    @Test(
        "the page agrees with the CLI: the state at a dragged cursor, a decision's reasons, the decisions an unticked event changes; hostile strings stay text; a screenshot is kept"
    )
    func pageAgreesWithCLI() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        // A widget whose kind and app are markup and script, on a device of its own.
        let hostile = #"<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>"#
        let lines = [
            #"{"type":"device.info","time":"2026-03-02T06:00:00Z","device":"hostile","platform":"iOS","osVersion":"26.1"}"#,
            #"{"type":"stack.created","time":"2026-03-02T06:00:00Z","device":"hostile","stack":"s-1","platform":"iOS","family":"systemSmall","smartRotate":true,"widgetSuggestions":true}"#,
            #"{"type":"stack.widgetAdded","time":"2026-03-02T06:00:01Z","device":"hostile","stack":"s-1","position":0,"widget":{"instance":"w-1","app":"HOSTILE","kind":"HOSTILE","family":"systemSmall","configuration":null}}"#,
        ].map { $0.replacingOccurrences(of: "HOSTILE", with: hostile) }
        #expect(
            try CLI.run(["ingest", "--store", dir.store, "-"], stdin: lines.joined(separator: "\n") + "\n").status == 0)
        let screenshot = Fixtures.repositoryRoot + "/.build/test-artifacts/serve-page.png"
        try? FileManager.default.removeItem(atPath: screenshot)
        let server = try Running(["--store", dir.store])
        let script = #"""
            import json, re, subprocess, sys
            from playwright.sync_api import sync_playwright
            url, cli, store, screenshot = sys.argv[1:5]
            def ask(*arguments):
                done = subprocess.run([cli, *arguments, "--store", store], capture_output=True, text=True)
                if done.returncode != 0: raise SystemExit(" ".join(arguments) + ": " + done.stderr)
                return done.stdout
            from datetime import datetime
            def instant(text):
                return datetime.fromisoformat(text.replace("Z", "+00:00"))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 1200})
                errors, dialogs = [], []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
                page.goto(url + "?device=default&from=2026-03-02T00:00:00&span=86400")
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                # Drag the cursor to the middle of the day: the state shown is state --json's.
                page.locator("#cursor").fill("500")
                at = "2026-03-02T12:00:00Z"
                page.locator("#cursorTime", has_text=at).wait_for(timeout=30000)
                state = json.loads(ask("state", "--device", "default", "--at", at, "--json"))
                page.locator("#state", has_text="State at " + state["at"]).wait_for(timeout=30000)
                shown = page.inner_text("#state").split("\n")
                expected = []
                for s in state["stacks"]:
                    top = s["top"]["kind"] + " (" + s["top"]["instance"] + ")" if s["top"] else "none"
                    expected.append(s["stack"] + " (" + s["platform"] + "): top " + top)
                    expected += ["  %d. %s (%s)" % (w["position"], w["kind"], w["instance"]) for w in s["widgets"]]
                page_lines = [l.split("  relevance")[0] for l in shown if re.match(r"^(\S+ \(\w+\): top |  \d+\. )", l)]
                print(page_lines == expected and len(expected) > 0)
                page.screenshot(path=screenshot, full_page=True)
                # Click a decision: the reasons shown are why --json's.
                page.locator("svg[data-stack=home-1] .decision").first.click()
                page.locator("#why", has_text="Why at").wait_for(timeout=30000)
                head = page.inner_text("#why").split("\n")[0]
                when, stack = re.match(r"Why at (\S+) on (\S+):", head).groups()
                answer = json.loads(ask("why", "--device", "default", "--at", when, "--stack", stack, "--json"))
                codes = [r["code"] for r in (answer["decision"]["reasons"] if answer["decision"] else [])]
                shown_codes = re.findall(r"^  ([A-Z_]+) \[", page.inner_text("#why"), re.M)
                print(shown_codes == codes and len(codes) > 0)
                # Untick the first cited event: the decisions that change are replay --without's.
                seq = re.search(r"event (\d+)", page.locator("#why label").first.inner_text()).group(1)
                page.locator("#why input.cited").first.uncheck()
                page.locator("#without", has_text="decisions change").wait_for(timeout=30000)
                new, gone = map(int, re.search(r"\((\d+) new, (\d+) gone\)", page.inner_text("#without")).groups())
                def decided(key):
                    # Whether why --without, asked at the decision's instant, names that decision.
                    time, stack, action, instance = key.split("|")
                    d = json.loads(ask("why", "--device", "default", "--at", time, "--stack", stack, "--without", seq, "--json"))["decision"]
                    return d is not None and (instant(d["time"]), d["action"], d["widget"]["instance"]) == (instant(time), action, instance)
                shown_new = page.locator("svg .decision.changed").evaluate_all("l => l.map(e => e.getAttribute('data-decision'))")
                shown_gone = page.locator("svg .gone").evaluate_all("l => l.map(e => e.getAttribute('data-decision'))")
                print(len(shown_new) == new, len(shown_gone) == gone, new + gone > 0,
                      all(decided(k) for k in shown_new[:4]) and not any(decided(k) for k in shown_gone[:4]))
                # The hostile device: its strings are drawn as text and run nothing.
                page.goto(url + "?device=hostile&from=2026-03-02T00:00:00&span=86400")
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                page.locator("#cursor").fill("500")
                page.locator("#state", has_text="s-1 (iOS)").wait_for(timeout=30000)
                print(page.title() == "StackLedger", dialogs == [], page.locator("#lanes img, #state img, #legend img").count() == 0,
                      "<script>" in page.inner_text("#legend") and "<script>" in page.inner_text("#state"))
                print(errors)
                browser.close()
            """#
        let r = try python(script, [server.url, CLI.executable, dir.store, screenshot])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 5, "\(r.stdout)\(r.stderr)")
        #expect(out[0] == "True", "the state at the cursor: \(out[0])")
        #expect(out[1] == "True", "the decision's reasons: \(out[1])")
        #expect(out[2] == "True True True True", "the decisions without the event: \(out[2])")
        #expect(out[3] == "True True True True", "the hostile strings: \(out[3])")
        #expect(out[4] == "[]", "\(out[4])")
        let attributes = try FileManager.default.attributesOfItem(atPath: screenshot)
        #expect((attributes[.size] as? Int ?? 0) > 10_000, "the screenshot at \(screenshot)")
    }

    @Test(
        "served with a policy calibrate fitted, the page names it and says what it was fitted on and how well it agrees"
    )
    func fittedPolicy() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let fit = try dir.write(
            "fit.json",
            #"{"name":"smartstack-1-fit","parameters":{"rotationCapPerWidgetPerDay":2},"calibration":{"device":"phone","fromDigest":"sha256:19846c0f619048bc","converged":true,"fitted":["rotationCapPerWidgetPerDay"],"agreement":{"afterHeldOut":{"agrees":9,"judged":10}}}}"#
        )
        let server = try Running(["--store", dir.store, "--policy", fit])
        let script = """
            import sys
            from playwright.sync_api import sync_playwright
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page()
                page.goto(sys.argv[1])
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                page.locator("#policy", has_text="fitted").wait_for(timeout=30000)
                print(page.inner_text("#policy"))
                browser.close()
            """
        let r = try python(script, [server.url])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Policy smartstack-1-fit v2"), "\(r.stdout)")
        #expect(r.stdout.contains("rotationCapPerWidgetPerDay were fitted to the records of phone"), "\(r.stdout)")
        #expect(r.stdout.contains("agrees with 9 of 10 records held out of the fit (90 %)"), "\(r.stdout)")
        #expect(r.stdout.contains("not Apple's algorithm"), "\(r.stdout)")
    }

    @Test(
        "the page renders in Chromium: labelled lanes and a legend, the state at the cursor, why on a decision, and a reproducing command"
    )
    func page() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running(["--store", dir.store])
        let script = """
            import sys
            from playwright.sync_api import sync_playwright, expect
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page()
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(sys.argv[1])
                page.wait_for_selector("body[data-ready=yes]", timeout=30000)
                page.select_option("#device", "default")
                page.fill("#from", "2026-03-02T00:00:00")
                page.dispatch_event("#from", "change")
                page.wait_for_selector("svg[data-stack=home-1] .decision", timeout=30000)
                print(sorted(t.strip() for t in page.locator("#legend span").all_inner_texts()))
                print("WeatherWidget" in page.locator("svg[data-stack=home-1] .span-label").all_text_contents())
                page.locator("svg[data-stack=home-1] .decision").first.click()
                page.locator("#why", has_text="RELEVANT_SHORTCUT").wait_for(timeout=30000)
                print("Why at" in page.inner_text("#why"), page.locator("#why input.cited").count() > 0)
                # What-if: untick the cited shortcut set; its suggestion's decisions are gone.
                page.locator("#why input.cited").first.uncheck()
                page.locator("#without", has_text="decisions change").wait_for(timeout=30000)
                print(page.locator("svg[data-stack=home-1] .gone").count() > 0)
                # The view's link opens the same view: the same what-if, in a new page.
                shared = browser.new_page()
                shared.goto(sys.argv[1].rstrip("/") + page.locator("#permalink").get_attribute("href"))
                shared.wait_for_selector("body[data-ready=yes]", timeout=30000)
                print(shared.inner_text("#without") == page.inner_text("#without") != "", shared.input_value("#device"))
                shared.close()
                page.locator("#why input.cited").first.check()
                expect(page.locator("#without")).to_have_text("", timeout=30000)
                page.focus("body")
                page.keyboard.press("ArrowRight")
                # The cursor steps to the first decision, where home-1 exists.
                page.locator("#state", has_text="home-1 (iOS): top").wait_for(timeout=30000)
                print("home-1 (iOS): top" in page.inner_text("#state"), page.inner_text("#command").startswith("stackledger "))
                page.select_option("#device", "phone")
                page.fill("#from", "2021-11-02T00:00:00")
                page.dispatch_event("#from", "change")
                page.wait_for_selector("svg .disagreement", timeout=30000)
                lane = page.locator("svg[data-stack=STACK-1]")
                print(lane.locator(".record").count() > 0, lane.locator(".disagreement").count() > 0, "LAYOUT_ASSUMED" in page.inner_text("#assumptions"), lane.locator(".stack-scope").count() > 0)
                page.locator("svg[data-stack=STACK-1] .span").first.click()
                page.locator("#why", has_text="not on top").or_(page.locator("#why", has_text=": on top")).wait_for(timeout=30000)
                print("--widget" in page.inner_text("#command"))
                print(errors)
                browser.close()
            """
        let r = try python(script, [server.url])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 9, "\(r.stdout)\(r.stderr)")
        #expect(out[0].contains("CalendarWidget") && out[0].contains("WeatherWidget"), "\(out[0])")
        #expect(out[1] == "True")
        #expect(out[2] == "True True", "\(out[2])")
        // Without the cited event, the decisions it caused are drawn as gone.
        #expect(out[3] == "True", "\(out[3])")
        #expect(out[4] == "True default", "\(out[4])")
        #expect(out[5] == "True True", "\(out[5])")
        // The device's own records in their stack's lane, with its disagreement marked, the
        // layout's assumption, and PowerLog's in-stack rows drawn as saying only that the
        // stack was on screen; a widget answers why.
        #expect(out[6] == "True True True True", "\(out[6])")
        #expect(out[7] == "True", "\(out[7])")
        #expect(out[8] == "[]", "\(out[8])")
    }
}
