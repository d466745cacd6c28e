/// The page `serve` shows, embedded in the binary: no file system path is ever served. Every
/// string from the log is set as text (`textContent`), never as markup; the script loads only
/// from this server (the Content-Security-Policy allows nothing else).
enum PageAssets {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>StackLedger</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>StackLedger</h1>
          <label>Device <select id="device"></select></label>
          <label>From <input id="from" type="datetime-local" step="1"></label>
          <label>Span <select id="span"><option value="604800">week</option><option value="86400" selected>day</option><option value="21600">6 hours</option><option value="3600">hour</option><option value="900">15 minutes</option></select></label>
          <button id="earlier">◀</button><button id="later">▶</button>
          <label>Known at <input id="knownAt" type="datetime-local" step="1"></label>
          <span id="without"></span>
        </header>
        <p id="live" class="note"></p>
        <p id="policy" class="note"></p>
        <p class="note">Relevance lanes are normalised per provider: each app's scores against its own other scores.</p>
        <div id="assumptions" class="note"></div>
        <div id="legend"></div>
        <nav id="navigation" aria-label="Navigation over the whole log">
          <button id="prevRecord" title="previous device record (p)">◀ record</button><button id="nextRecord" title="next device record (n)">record ▶</button>
          <button id="zoomIn" title="zoom in (+)">+</button><button id="zoomOut" title="zoom out (-)">−</button><button id="fit" title="the whole log">fit</button>
          <label><input id="utc" type="checkbox"> UTC</label>
          <label>Search <input id="search" type="search" placeholder="app, kind, type or event number" aria-label="Search the device's events by app, kind, type or event number"></label>
          <span id="evidence" class="note" aria-live="polite"></span>
        </nav>
        <svg id="overview" width="1000" height="68" role="img" aria-label="The whole log: events and device records per day, the days with disagreements and with assumptions marked; the box is the view"></svg>
        <svg id="axis" width="1000" height="24" role="img" aria-label="Time axis"></svg>
        <div class="workspace">
          <div id="lanes" title="drag to zoom to a range; shift-drag to pan; wheel to zoom at the pointer"></div>
          <aside>
            <ol id="found" aria-label="Events found"></ol>
            <h2>Device records</h2>
            <ol id="records" aria-label="The device's records with the model's judgement"></ol>
          </aside>
        </div>
        <label class="cursor">Time <input id="cursor" type="range" min="0" max="1000" value="0"> <output id="cursorTime"></output></label>
        <section id="state"></section>
        <section id="why"></section>
        <p>Reproduce: <code id="command"></code> · <a id="permalink" href="/">link to this view</a></p>
        </body>
        </html>

        """

    static let style = """
        body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; }
        header label, header button { margin-right: 10px; }
        .note { color: #555; }
        #legend span { display: inline-block; margin: 2px 10px 2px 0; }
        #legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: middle; }
        svg { display: block; margin-bottom: 6px; }
        .cursor input { width: 900px; }
        section { border-top: 1px solid #ddd; margin-top: 10px; padding-top: 6px; white-space: pre-wrap; font-family: ui-monospace, monospace; }
        .decision { cursor: pointer; }
        .disagree { color: #b00; }
        #navigation button { margin-right: 4px; }
        .workspace { display: flex; gap: 12px; align-items: flex-start; }
        .workspace aside { max-height: 640px; overflow-y: auto; min-width: 260px; font-size: 12px; }
        .workspace aside h2 { font-size: 13px; margin: 4px 0; }
        .workspace ol { padding-left: 22px; margin: 0 0 8px; }
        #records li[aria-current] { font-weight: bold; }
        #overview, #lanes { cursor: crosshair; user-select: none; }
        #selection { position: absolute; background: rgba(0, 102, 204, 0.15); border: 1px solid #06c; pointer-events: none; display: none; }
        button:focus-visible, select:focus-visible, input:focus, input:focus-within, a:focus-visible { outline: 2px solid #06c; outline-offset: 1px; }

        """

    /// The page's script: its lanes and answers, then the overview, axis and navigation.
    static let script = lanesScript + navigationScript + "start();\n"

    static let lanesScript = #"""
        "use strict";
        const W = 1000, LEFT = 110;
        const $ = id => document.getElementById(id);
        const NS = "http://www.w3.org/2000/svg";
        let report = null, devices = [], without = new Set(), disagreements = [], gone = [], added = new Set();
        const key = d => d.time + "|" + d.stack + "|" + d.action + "|" + d.widget.instance;
        function el(tag, attrs, parent) {
          const e = document.createElementNS(NS, tag);
          for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
          if (parent) parent.appendChild(e);
          return e;
        }
        function label(parent, s, attrs) { const t = el("text", attrs, parent); t.textContent = s; return t; }
        // Okabe and Ito's palette, told apart with the common colour-vision deficiencies; a
        // name keeps its colour, and every colour has its label beside it (legend, lane, tooltip).
        const PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999"];
        function color(s) { let h = 0; for (const c of s) h = (h * 31 + c.codePointAt(0)) >>> 0; return PALETTE[h % PALETTE.length]; }
        function iso(ms) { return new Date(ms).toISOString().replace(".000Z", "Z"); }
        function local(ms) { return new Date(ms).toISOString().slice(0, 19); }
        function params(extra, asRecorded) {
          const p = new URLSearchParams({ device: $("device").value, ...extra });
          if ($("knownAt").value) p.set("knownAt", $("knownAt").value + "Z");
          if (without.size && !asRecorded) p.set("without", [...without].sort((a, b) => a - b).join(","));
          return p;
        }
        async function api(path, extra, asRecorded) {
          const r = await fetch("/api/" + path + "?" + params(extra, asRecorded), { credentials: "same-origin" });
          const text = await r.text();
          if (!r.ok) { let m = text; try { m = JSON.parse(text).error.message; } catch (e) {} throw new Error(m); }
          return text;
        }
        function interval() {
          const from = Date.parse($("from").value + "Z");
          return [from, from + 1000 * Number($("span").value)];
        }
        function x(t) { const [a, b] = interval(); return LEFT + (W - LEFT) * (t - a) / (b - a); }
        function command(kind, at, stack) {
          let c = "stackledger " + kind + " --device " + JSON.stringify($("device").value) + " --at " + iso(at);
          if (stack) c += " --stack " + JSON.stringify(stack);
          if ($("knownAt").value) c += " --known-at " + $("knownAt").value + "Z";
          if (without.size) c += " --without " + [...without].join(",");
          $("command").textContent = c;
          permalink(at);
        }
        // The view as a URL: device, interval, cursor, known-at and what-if, read back on load.
        function permalink(at) {
          const p = new URLSearchParams({ device: $("device").value, from: $("from").value, span: $("span").value, at: iso(at) });
          if ($("knownAt").value) p.set("knownAt", $("knownAt").value);
          if (without.size) p.set("without", [...without].sort((a, b) => a - b).join(","));
          $("permalink").href = "/?" + p;
          history.replaceState(null, "", "/?" + p);
        }
        // Each load is numbered: the answers of one that a newer load overtook are dropped, so
        // a slow answer never draws an older view over a newer one.
        let loads = 0;
        // Milliseconds from navigation start to the drawn lanes (or to the error shown instead).
        function stampRendered() { document.body.setAttribute("data-rendered", String(Math.round(performance.now()))); }
        // A load whose question failed shows the error in the lanes, unless a newer load overtook it.
        function failed(generation, e) {
          if (generation !== loads) return;
          $("lanes").textContent = "Error: " + e.message;
          stampRendered();
        }
        async function load() {
          const generation = ++loads;
          const [a, b] = interval();
          let reportText, replayText;
          try {
            // Both at once: the server answers them on separate cores.
            [reportText, replayText] = await Promise.all([
              api("report", { from: iso(a), to: iso(b) }),
              api("replay", { from: iso(a), to: iso(b), disagreements: "true" })]);
          } catch (e) { return failed(generation, e); }
          if (generation !== loads) return;
          report = JSON.parse(reportText);
          disagreements = replayText.split("\n").filter(l => l).map(l => JSON.parse(l));
          const fit = report.policy.fitted;
          $("policy").textContent = "Policy " + report.policy.name + " v" + report.policy.version + " (" + report.policy.digest + "): StackLedger's model of the Smart Stack, not Apple's algorithm." +
            (fit ? " Its parameters " + fit.parameters.join(", ") + " were fitted to the records of " + fit.device +
              (fit.heldOut && fit.heldOut.judged ? "; it agrees with " + fit.heldOut.agrees + " of " + fit.heldOut.judged + " records held out of the fit (" + Math.round(100 * fit.heldOut.agrees / fit.heldOut.judged) + " %)." : "; no record was held out to measure it.") : "");
          gone = []; added = new Set();
          if (without.size) {
            // What-if: the decisions that change against the log as recorded.
            let recorded;
            try {
              recorded = JSON.parse(await api("report", { from: iso(a), to: iso(b) }, true));
            } catch (e) { return failed(generation, e); }
            if (generation !== loads) return;
            const now = new Set(report.decisions.map(key)), before = new Set(recorded.decisions.map(key));
            gone = recorded.decisions.filter(d => !now.has(key(d)));
            added = new Set(report.decisions.filter(d => !before.has(key(d))).map(key));
          }
          $("without").textContent = without.size ? "without events " + [...without].join(", ") + ": " +
            (added.size + gone.length) + " decisions change (" + added.size + " new, " + gone.length + " gone)" : "";
          $("assumptions").textContent = report.assumptions.map(a => "Assumes " + a.code + " (" + a.stack + "): " + a.detail).join("\n");
          draw();
          describeAssumptions(report);
          stampRendered();
          await moveCursor();
        }
        // Live: the server tells each commit; a new one redraws the view and lists new devices.
        let shownSeq = null;
        // Resolves once the server has told the sequence number the page starts from, so that
        // every later commit is one the page hears of.
        function follow() {
          return new Promise(told => {
            const source = new EventSource("/api/commits");
            // A page whose stream cannot open still works; it is only not live.
            source.addEventListener("error", () => told());
            source.addEventListener("commit", async e => {
              const last = JSON.parse(e.data).lastSeq;
              if (shownSeq === null || last === shownSeq) { shownSeq = last; told(); return; }
              shownSeq = last;
              devices = JSON.parse(await api("devices", {})).devices;
              const listed = new Set([...$("device").options].map(o => o.value));
              for (const d of devices) if (!listed.has(d.device)) { const o = document.createElement("option"); o.value = d.device; o.textContent = d.device; $("device").appendChild(o); }
              await load();
              $("live").textContent = "Redrawn with the events committed through sequence number " + last + ".";
              $("live").setAttribute("data-seq", String(last));
            });
          });
        }
        // The stack a device record belongs to: the one it names, else the one the model
        // judged it against (a record that names no stack, such as PowerLog's).
        function recordStack(e) {
          return stackLookup().of(e);
        }
        // The lookups `recordStack` makes, built once for each loaded view.
        let lookup = null;
        function stackLookup() {
          if (lookup && lookup.report === report && lookup.disagreements === disagreements) return lookup;
          const judgedStack = new Map(), holder = new Map();
          for (const d of disagreements) if (!judgedStack.has(d.event)) judgedStack.set(d.event, d.stack);
          // A record that names the widget's instance belongs to the stack the model holds it in.
          for (const s of report.stacks) for (const l of s.lanes) if (!holder.has(l.instance)) holder.set(l.instance, s.stack);
          const of = e => {
            if (e.stack) return e.stack;
            if (judgedStack.has(e.seq)) return judgedStack.get(e.seq);
            return (e.instance && holder.get(e.instance)) || null;
          };
          lookup = { report, disagreements, of };
          return lookup;
        }
        function stackScope(e) {
          return e.scope === "stack";
        }
        function isRecord(e) {
          return e.type === "stack.observed" || e.type === "stack.rotated" || (e.type === "widget.tapped" && e.recorded === true);
        }
        function draw() {
          const lanes = $("lanes"), legend = $("legend");
          lanes.textContent = ""; legend.textContent = "";
          const kinds = new Map();
          for (const s of report.stacks) {
            const svg = el("svg", { width: W, height: 82, "data-stack": s.stack }); lanes.appendChild(svg);
            // The stack's name, with the kinds on its top in the view, on hover.
            const name = el("g", { class: "stack-name" }, svg);
            label(name, s.stack, { x: 2, y: 14, "font-weight": "bold" });
            el("title", {}, name).textContent = s.stack + " (" + s.platform + "): " + [...new Set(s.lanes.map(l => l.kind))].join(", ");
            label(svg, "on top", { x: 2, y: 30 }); label(svg, "suggested", { x: 2, y: 52 });
            // The device's own records of this stack, against the model's lane above them.
            label(svg, "device records", { x: 2, y: 74 });
            for (const e of report.events.filter(e => recordStack(e) === s.stack)) {
              // A record of scope stack says the stack was on screen, never which member was on top.
              const only = stackScope(e);
              const tick = el("line", { x1: x(e.time), x2: x(e.time), y1: only ? 66 : 62, y2: 78, stroke: only ? "#888" : "#333", "stroke-dasharray": only ? "2,2" : "none", class: only ? "record stack-scope" : "record" }, svg);
              const t = el("title", {}, tick); t.textContent = "event " + e.seq + ": " + e.type + " " + e.summary + (only ? " (the stack was on screen; the record cannot say which member was on top)" : "") + recordNote(e);
            }
            for (const d of disagreements.filter(d => d.stack === s.stack)) {
              const m = el("circle", { cx: x(Date.parse(d.time)), cy: 70, r: 5, fill: "none", stroke: "#c00", class: "disagreement" }, svg);
              const t = el("title", {}, m); t.textContent = "disagrees (event " + d.event + "): " + d.detail;
            }
            for (const l of s.lanes) {
              kinds.set(l.kind, l.app);
              const w = Math.max(1, x(l.end) - x(l.start));
              const span = el("rect", { x: x(l.start), y: 18, width: w, height: 18, fill: color(l.kind), opacity: l.suggested ? 0.6 : 1, class: "span" }, svg);
              span.addEventListener("click", () => why(Math.round((l.start + l.end) / 2), s.stack, l.instance));
              el("title", {}, span).textContent = l.kind + " (" + l.instance + ") of " + l.app + (l.suggested ? ", suggested" : "") + "\non top " + clock(l.start) + " to " + clock(l.end);
              if (w > 40) label(svg, l.kind, { x: x(l.start) + 3, y: 31, "font-size": 11, class: "span-label" });
            }
            for (const l of s.suggestions) {
              kinds.set(l.kind, l.kind);
              el("rect", { x: x(l.start), y: 42, width: Math.max(1, x(l.end) - x(l.start)), height: 14, fill: color(l.kind), opacity: 0.6 }, svg);
            }
            for (const d of report.decisions.filter(d => d.stack === s.stack)) {
              const changed = added.has(key(d));
              const c = el("circle", { cx: x(Date.parse(d.time)), cy: 27, r: 5, fill: changed ? "#f90" : "#fff", stroke: "#333", class: changed ? "decision changed" : "decision", "data-decision": key(d) }, svg);
              c.addEventListener("click", () => why(Date.parse(d.time), d.stack));
              el("title", {}, c).textContent = d.action + " of " + d.widget.kind + " (" + d.widget.instance + ") at " + clock(Date.parse(d.time)) +
                (d.reasons ? "\n" + d.reasons.map(r => r.code).join(", ") : "") + "\nclick for why";
            }
            for (const d of gone.filter(d => d.stack === s.stack)) {
              const c = el("circle", { cx: x(Date.parse(d.time)), cy: 27, r: 5, fill: "none", stroke: "#999", "stroke-dasharray": "2,2", class: "gone", "data-decision": key(d) }, svg);
              const t = el("title", {}, c); t.textContent = "without the unticked events, no " + d.action + " of " + d.widget.kind + " here";
            }
          }
          const ev = el("svg", { width: W, height: 44 }); lanes.appendChild(ev);
          label(ev, "events", { x: 2, y: 14 }); label(ev, "records, no stack", { x: 2, y: 36 });
          const stacks = new Set(report.stacks.map(s => s.stack));
          for (const e of report.events.filter(e => !stacks.has(recordStack(e)))) {
            const record = isRecord(e);
            const line = el("line", { x1: x(e.time), x2: x(e.time), y1: record ? 26 : 4, y2: record ? 40 : 18, stroke: record ? "#333" : color(e.type), class: record ? "record" : "event" }, ev);
            const t = el("title", {}, line); t.textContent = "event " + e.seq + ": " + e.type + " " + (e.app || "") + " " + e.summary + (record ? recordNote(e) : "");
          }
          for (const d of disagreements.filter(d => !stacks.has(d.stack))) {
            const m = el("circle", { cx: x(Date.parse(d.time)), cy: 33, r: 5, fill: "none", stroke: "#c00", class: "disagreement" }, ev);
            const t = el("title", {}, m); t.textContent = "disagrees (event " + d.event + "): " + d.detail;
          }
          const rel = el("svg", { width: W, height: 20 + 18 * report.relevance.length }); lanes.appendChild(rel);
          report.relevance.forEach((w, i) => {
            const y0 = 4 + 18 * i;
            label(rel, w.kind, { x: 2, y: y0 + 12, "font-size": 10 });
            for (const [start, end, score, normalized] of w.spans) {
              const bar = el("rect", { x: x(start), y: y0 + 14 * (1 - normalized), width: Math.max(1, x(end) - x(start)), height: Math.max(1, 14 * normalized), fill: color(w.kind), class: "relevance" }, rel);
              const t = el("title", {}, bar); t.textContent = w.kind + ": score " + score + ", normalised " + normalized;
            }
          });
          const names = [...new Set(report.contexts.map(c => c.context))];
          const ctx = el("svg", { width: W, height: 6 + 16 * names.length }); lanes.appendChild(ctx);
          names.forEach((n, i) => label(ctx, contextName(n).slice(0, 22), { x: 2, y: 16 + 16 * i, "font-size": 10, class: "context-label" }));
          for (const c of report.contexts) {
            const i = names.indexOf(c.context);
            const box = el("rect", { x: x(c.start), y: 6 + 16 * i, width: Math.max(1, x(c.end) - x(c.start)), height: 12, fill: color(c.context), opacity: 0.5, class: "context" }, ctx);
            el("title", {}, box).textContent = contextName(c.context) + ": " + clock(c.start) + " to " + clock(c.end);
          }
          for (const [kind] of [...kinds].sort()) {
            const item = document.createElement("span"); const box = document.createElement("i");
            box.style.background = color(kind); item.appendChild(box); item.appendChild(document.createTextNode(kind)); legend.appendChild(item);
          }
          drawAxis();
          drawOverview();
        }
        function cursorTime() { const [a, b] = interval(); return Math.round(a + (b - a) * $("cursor").value / 1000); }
        async function moveCursor() {
          const t = cursorTime();
          $("cursorTime").textContent = iso(t);
          let state;
          try { state = JSON.parse(await api("state", { at: iso(t) })); } catch (e) { $("state").textContent = e.message; return; }
          const lines = ["State at " + state.at];
          for (const s of state.stacks) {
            lines.push(s.stack + " (" + s.platform + "): top " + (s.top ? s.top.kind + " (" + s.top.instance + ")" : "none"));
            for (const w of s.widgets) lines.push("  " + w.position + ". " + w.kind + " (" + w.instance + ")" + (w.suggested ? " suggested" : "") +
              (w.relevance ? "  relevance " + w.relevance.score + " (normalised " + w.relevance.normalized + ")" : ""));
            if (s.decision) lines.push("  put there by: " + s.decision.action + " at " + s.decision.time + ", " + s.decision.reasons.map(r => r.code).join(", "));
          }
          for (const a of state.assumptions) lines.push("assumes " + a.code + ": " + a.detail);
          $("state").textContent = lines.join("\n");
          command("state", t);
        }
        async function why(t, stack, widget) {
          let answer;
          const ask = widget ? { at: iso(t), stack, widget } : { at: iso(t), stack };
          try { answer = JSON.parse(await api("why", ask)); } catch (e) { $("why").textContent = e.message; return; }
          const box = $("why"); box.textContent = "";
          const head = document.createElement("div");
          head.textContent = "Why at " + answer.at + " on " + answer.stack + ": " + (answer.top ? answer.top.kind + " (" + answer.top.instance + ") is on top" : "nothing is on top");
          box.appendChild(head);
          const reasons = (answer.decision ? answer.decision.reasons : []).concat(answer.widget ? answer.widget.reasons : []);
          if (answer.widget) { const w = document.createElement("div"); w.textContent = answer.widget.query + ": " + (answer.widget.onTop ? "on top" : "not on top") + (answer.widget.suggested ? ", suggested" : ""); box.appendChild(w); }
          for (const r of reasons) {
            const line = document.createElement("div");
            line.textContent = "  " + r.code + " [" + r.basis + ", rule " + r.rule + (r.parameters && r.parameters.length ? ", parameters " + r.parameters.join(", ") : "") + "] " + r.detail;
            box.appendChild(line);
          }
          for (const a of answer.assumptions) { const line = document.createElement("div"); line.textContent = "  assumes " + a.code + ": " + a.detail; box.appendChild(line); }
          for (const e of answer.cited) {
            const row = document.createElement("label"); row.style.display = "block";
            const tick = document.createElement("input"); tick.type = "checkbox"; tick.checked = !without.has(e.seq); tick.className = "cited";
            tick.addEventListener("change", () => { if (tick.checked) without.delete(e.seq); else without.add(e.seq); load(); });
            row.appendChild(tick);
            row.appendChild(document.createTextNode(" event " + e.seq + " " + e.time + " " + e.type + (e.app ? " " + e.app : "") +
              (e.source ? "  from " + (e.source.path || "?") + (e.source.stream ? " " + e.source.stream : "") : "")));
            box.appendChild(row);
          }
          command("why", t, stack);
          if (widget) $("command").textContent += " --widget " + JSON.stringify(widget);
        }
        function step(direction) {
          const t = cursorTime();
          const times = report.decisions.map(d => Date.parse(d.time)).sort((a, b) => a - b);
          const next = direction > 0 ? times.find(u => u > t) : times.reverse().find(u => u < t);
          if (next === undefined) return;
          const [a, b] = interval();
          $("cursor").value = Math.ceil(1000 * (next - a) / (b - a));
          moveCursor();
        }
        async function start() {
          await follow();
          devices = JSON.parse(await api("devices", {})).devices;
          for (const d of devices) { const o = document.createElement("option"); o.value = d.device; o.textContent = d.device; $("device").appendChild(o); }
          const asked = new URLSearchParams(location.search);
          if (devices.some(d => d.device === asked.get("device"))) $("device").value = asked.get("device");
          // The opening day comes from the overview; a view the URL pins does not wait for it.
          const overviewLoaded = loadOverview();
          if (!asked.get("from")) await overviewLoaded;
          const device = devices.find(d => d.device === $("device").value);
          const first = device ? Date.parse(device.first) : Date.now();
          $("from").value = local(overview ? Date.parse(overview.open) : Math.floor(first / 86400000) * 86400000);
          if (asked.get("from") && !isNaN(Date.parse(asked.get("from") + "Z"))) $("from").value = asked.get("from");
          if ([...$("span").options].some(o => o.value === asked.get("span"))) $("span").value = asked.get("span");
          if (asked.get("knownAt") && !isNaN(Date.parse(asked.get("knownAt") + "Z"))) $("knownAt").value = asked.get("knownAt");
          for (const seq of (asked.get("without") || "").split(",")) if (/^[0-9]+$/.test(seq)) without.add(Number(seq));
          const at = Date.parse(asked.get("at") || "");
          if (!isNaN(at)) { const [a, b] = interval(); $("cursor").value = Math.max(0, Math.min(1000, Math.round(1000 * (at - a) / (b - a)))); }
          for (const id of ["from", "span", "knownAt"]) $(id).addEventListener("change", () => { without.clear(); load(); });
          $("device").addEventListener("change", async () => {
            without.clear();
            // The new device's evidence is shown unless a view was chosen meanwhile.
            const chosen = $("from").value;
            await loadOverview();
            if (overview && $("from").value === chosen) setView(Date.parse(overview.open), 86400);
            await load();
            loadRecords();
          });
          listenForNavigation();
          $("earlier").addEventListener("click", () => { $("from").value = local(interval()[0] - 1000 * Number($("span").value)); load(); });
          $("later").addEventListener("click", () => { $("from").value = local(interval()[0] + 1000 * Number($("span").value)); load(); });
          $("cursor").addEventListener("input", moveCursor);
          document.addEventListener("keydown", e => { if (e.key === "ArrowRight") step(1); if (e.key === "ArrowLeft") step(-1); });
          await load();
          await overviewLoaded;
          drawAxis();
          drawOverview();
          await loadRecords();
          document.body.setAttribute("data-ready", "yes");
        }

        """#
}
