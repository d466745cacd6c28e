extension PageAssets {
    /// The page's overview of the whole log, its time axis, zoom and pan, and the jumps from
    /// one device record to the next. Times are drawn in the device's local time (the offset
    /// of its last event) unless UTC is ticked; the view itself is always kept in UTC.
    static let navigationScript = #"""
        let overview = null, jumped = null;
        const DAY = 86400000;
        const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
          172800, 604800, 1209600, 2592000, 7776000, 15552000, 31536000].map(s => s * 1000);
        function offsetMs() { return $("utc").checked || !overview ? 0 : overview.offsetMinutes * 60000; }
        function zoneText() {
          const m = offsetMs() / 60000, a = Math.abs(m);
          return "UTC" + (m === 0 ? "" : (m < 0 ? "−" : "+") + String(Math.floor(a / 60)).padStart(2, "0") + ":" + String(a % 60).padStart(2, "0"));
        }
        // An instant as the axis shows it: date and time in the zone shown.
        function clock(ms) { return new Date(ms + offsetMs()).toISOString().slice(0, 19).replace("T", " ") + " " + zoneText(); }
        // A context's JSON in words: `backlight`, `location: home`, `fitness: workoutActive`.
        function contextName(text) {
          try {
            const [k, v] = Object.entries(JSON.parse(text))[0];
            if (k === "device") return v;
            if (typeof v !== "object" || v === null) return k + ": " + v;
            const [k2, v2] = Object.entries(v)[0];
            return k + ": " + (typeof v2 === "object" ? k2 : v2);
          } catch (e) { return text; }
        }
        // Each assumption with the date and time of the event it rests on (read with
        // `/api/search` when the event lies outside the view), once the view is drawn.
        async function describeAssumptions(shownReport) {
          const lines = [];
          for (const a of shownReport.assumptions) {
            let when = "";
            const seq = a.events && a.events[0];
            if (seq) {
              const inView = shownReport.events.find(e => e.seq === seq);
              let t = inView ? inView.time : null;
              if (t === null) {
                try {
                  const found = (await api("search", { q: String(seq) }, true)).split("\n").filter(l => l).map(l => JSON.parse(l))[0];
                  if (found) t = Date.parse(found.time);
                } catch (e) { t = null; }
              }
              if (t !== null) when = ", resting on event " + seq + " of " + clock(t);
            }
            lines.push("Assumes " + a.code + " (" + a.stack + when + "): " + a.detail);
          }
          if (report === shownReport) $("assumptions").textContent = lines.join("\n");
        }
        function spanText(s) {
          const unit = s >= 86400 ? [86400, "days"] : s >= 3600 ? [3600, "hours"] : s >= 60 ? [60, "minutes"] : [1, "seconds"];
          return (Math.round(10 * s / unit[0]) / 10) + " " + unit[1];
        }
        // Shows the interval [from, from + seconds), any length: a span the menu lacks gets an entry of its own.
        function setView(from, seconds) {
          seconds = Math.max(10, Math.round(seconds));
          const menu = $("span");
          if (![...menu.options].some(o => Number(o.value) === seconds)) {
            for (const old of [...menu.options]) if (old.dataset.custom) old.remove();
            const o = document.createElement("option");
            o.value = String(seconds); o.textContent = spanText(seconds); o.dataset.custom = "yes";
            menu.appendChild(o);
          }
          menu.value = String(seconds);
          $("from").value = local(Math.round(from / 1000) * 1000);
        }
        async function loadOverview() {
          try { overview = JSON.parse(await api("overview", {}, true)); } catch (e) { overview = null; }
          jumped = null;
        }
        function overviewRange() {
          const b = overview.buckets;
          return [Date.parse(b[0][0]), Date.parse(b[b.length - 1][0]) + 1000 * overview.bucketSeconds];
        }
        function ox(t) { const [a, b] = overviewRange(); return LEFT + (W - LEFT) * (t - a) / (b - a); }
        function fromOx(px) { const [a, b] = overviewRange(); return a + (b - a) * (px - LEFT) / (W - LEFT); }
        // The whole log: events per day (or hour) as bars, device records as ticks, the view as a box.
        // The bars and marks are drawn once for each overview, zone shown and set of
        // judgements; a zoom or pan moves the box alone.
        let overviewDrawn = null;
        function drawOverview() {
          const svg = $("overview");
          if (!overview || !overview.buckets.length) { svg.textContent = ""; overviewDrawn = null; return; }
          const drawnFor = [overview, zoneText(), judged];
          if (!overviewDrawn || drawnFor.some((v, i) => v !== overviewDrawn[i])) {
            drawOverviewMarks(svg);
            overviewDrawn = drawnFor;
          }
          const [va, vb] = interval(), brush = svg.querySelector(".brush");
          brush.setAttribute("x", ox(va));
          brush.setAttribute("width", Math.max(3, ox(vb) - ox(va)));
        }
        function drawOverviewMarks(svg) {
          svg.textContent = "";
          const [a, b] = overviewRange();
          label(svg, "whole log", { x: 2, y: 14 });
          label(svg, overview.events + " events", { x: 2, y: 28, "font-size": 10 });
          label(svg, overview.records.length + overview.recordsLeftOut + " records", { x: 2, y: 40, "font-size": 10 });
          const most = Math.max(...overview.buckets.map(k => k[1]));
          const width = Math.max(1, (W - LEFT) * 1000 * overview.bucketSeconds / (b - a));
          for (const [start, events, records] of overview.buckets) {
            const t = Date.parse(start), h = Math.max(2, 30 * Math.log1p(events) / Math.log1p(most));
            const bar = el("rect", { x: ox(t), y: 34 - h, width, height: h, fill: "#7a9cc6", class: "density" }, svg);
            el("title", {}, bar).textContent = clock(t).slice(0, overview.bucketSeconds >= 86400 ? 10 : 16) + ": " + events + " events, " + records + " device records";
            if (records) el("rect", { x: ox(t), y: 38, width, height: 8, fill: "#222", class: "overview-record" }, svg);
          }
          // Under their records: the days holding a record the model disagrees with, and
          // those holding a record that answers rest on as an assumption.
          const bucket = 1000 * overview.bucketSeconds;
          const bucketOf = t => t - ((t % bucket) + bucket) % bucket;
          const disagreeing = new Map(), assuming = new Map();
          for (const r of overview.records) {
            const start = bucketOf(Date.parse(r.time)), o = judged.get(r.seq);
            if (o && o.judgement === "disagrees") disagreeing.set(start, (disagreeing.get(start) || 0) + 1);
            if (r.assumptions && r.assumptions.length) {
              const entry = assuming.get(start) || { count: 0, codes: new Set() };
              entry.count += 1;
              for (const code of r.assumptions) entry.codes.add(code);
              assuming.set(start, entry);
            }
          }
          const day = t => clock(t).slice(0, overview.bucketSeconds >= 86400 ? 10 : 16);
          for (const [start, count] of disagreeing) {
            const mark = el("rect", { x: ox(start), y: 47, width: Math.max(3, width), height: 4, fill: "#D55E00", class: "overview-disagreement" }, svg);
            el("title", {}, mark).textContent = day(start) + ": " + count + " device record" + (count === 1 ? "" : "s") + " the model disagrees with";
          }
          for (const [start, entry] of assuming) {
            const mark = el("rect", { x: ox(start), y: 52, width: Math.max(3, width), height: 4, fill: "#CC79A7", class: "overview-assumption" }, svg);
            el("title", {}, mark).textContent = day(start) + ": " + entry.count + " device record" + (entry.count === 1 ? "" : "s") + " that answers rest on as assumptions (" + [...entry.codes].sort().join(", ") + ")";
          }
          label(svg, clock(a).slice(0, 10), { x: LEFT, y: 66, "font-size": 10 });
          label(svg, clock(b).slice(0, 10), { x: W - 62, y: 66, "font-size": 10 });
          el("rect", { x: LEFT, y: 1, width: 3, height: 46, fill: "rgba(0,102,204,0.12)", stroke: "#06c", class: "brush" }, svg);
        }
        // Ticks at round steps of the zone shown, labelled with dates when the view crosses days.
        function drawAxis() {
          const svg = $("axis"); svg.textContent = "";
          const [a, b] = interval(), off = offsetMs();
          const step = STEPS.find(s => (W - LEFT) * s / (b - a) >= 90) || STEPS[STEPS.length - 1];
          label(svg, zoneText(), { x: 2, y: 14, class: "zone" });
          const crosses = Math.floor((a + off) / DAY) !== Math.floor((b - 1 + off) / DAY);
          for (let t = Math.ceil((a + off) / step) * step - off; t < b; t += step) {
            el("line", { x1: x(t), x2: x(t), y1: 16, y2: 24, stroke: "#555" }, svg);
            // A label is left out where it would run past the lanes' right edge.
            const text = tickText(t + off, step, crosses);
            if (x(t) + 6 * text.length <= W) label(svg, text, { x: x(t) + 2, y: 13, "font-size": 10, class: "tick" });
          }
        }
        function tickText(shifted, step, crosses) {
          const text = new Date(shifted).toISOString();
          if (step >= DAY) return text.slice(0, 10);
          const time = step < 60000 ? text.slice(11, 19) : text.slice(11, 16);
          return crosses ? text.slice(5, 10) + " " + time : time;
        }
        function zoom(factor, at) {
          const [a, b] = interval(), t = at === undefined ? (a + b) / 2 : at;
          const span = (b - a) * factor;
          setView(t - (t - a) * factor, span / 1000);
          load();
        }
        function pan(fraction) {
          const [a, b] = interval();
          setView(a + (b - a) * fraction, (b - a) / 1000);
          load();
        }
        function fit() {
          if (!overview || !overview.buckets.length) return;
          const [a, b] = overviewRange();
          setView(a, (b - a) / 1000);
          load();
        }
        // Each device record's judgement by the model (`replay?records=true`), by sequence number.
        let judged = new Map();
        // A device record's judgement and the artifact it was read from, for its tooltip.
        function recordNote(e) {
          const o = judged.get(e.seq), s = e.source;
          const from = s ? "\nfrom " + (s.path || "?") + (s.stream ? " (" + s.stream + ")" : "") + (s.artifact ? ", SHA-256 " + s.artifact.slice(0, 12) + "…" : "") : "";
          return "\njudged: " + (o ? o.judgement : "not judged") + from;
        }
        // The device's records of the whole log beside the lanes, each with its judgement and a link into the view.
        async function loadRecords() {
          const list = $("records"); list.textContent = "";
          if (!overview || !overview.records.length) return;
          try {
            const to = new Date(Date.parse(overview.last) + 1000).toISOString();
            const lines = (await api("replay", { from: overview.first, to, records: "true" }, true)).split("\n").filter(l => l);
            judged = new Map(lines.map(l => JSON.parse(l)).map(o => [o.event, o]));
          } catch (e) { judged = new Map(); }
          overview.records.forEach((r, index) => {
            const item = document.createElement("li"), link = document.createElement("a");
            const o = judged.get(r.seq);
            link.href = "#"; link.dataset.seq = String(r.seq);
            link.textContent = clock(Date.parse(r.time)) + " " + r.type + (r.stack ? " (" + r.stack + ")" : "") + ": " + (o ? o.judgement : "not judged") + assumedText(r);
            if (o && o.judgement === "disagrees") item.className = "disagree";
            link.addEventListener("click", e => { e.preventDefault(); jumpTo(index); });
            item.appendChild(link); list.appendChild(item);
          });
          drawOverview();
          // The lanes' record marks say their judgement once it is known.
          if (report) draw();
        }
        // Shows the events a search names (`/api/search`), each a link that centres the view on it.
        async function search(text) {
          const list = $("found"); list.textContent = "";
          if (!text.trim()) return;
          let lines;
          try { lines = (await api("search", { q: text.trim() }, true)).split("\n").filter(l => l).map(l => JSON.parse(l)); }
          catch (e) { const item = document.createElement("li"); item.textContent = e.message; list.appendChild(item); return; }
          if (!lines.length) { const item = document.createElement("li"); item.textContent = "no event of this device is named " + text.trim(); list.appendChild(item); }
          for (const e of lines) {
            const item = document.createElement("li"), link = document.createElement("a");
            link.href = "#"; link.dataset.seq = String(e.seq);
            link.textContent = "event " + e.seq + " " + e.type + (e.app ? " " + e.app : "") + " " + clock(Date.parse(e.time));
            link.addEventListener("click", async ev => {
              ev.preventDefault();
              await centre(Date.parse(e.time));
              $("evidence").textContent = "Event " + e.seq + ", " + e.type + ", " + clock(Date.parse(e.time));
              $("evidence").setAttribute("data-seq", String(e.seq));
            });
            item.appendChild(link); list.appendChild(item);
          }
        }
        // Centres the view, at its span, on instant t, with the cursor there.
        async function centre(t) {
          const [a, b] = interval();
          setView(t - (b - a) / 2, (b - a) / 1000);
          const [na, nb] = interval();
          $("cursor").value = String(Math.round(1000 * (t - na) / (nb - na)));
          await load();
        }
        // The next (1) or previous (-1) device record of the whole log, from the last one
        // jumped to while the cursor stays there, else from the cursor.
        async function jump(direction) {
          if (!overview || !overview.records.length) return;
          const records = overview.records;
          let index;
          if (jumped && jumped.cursor === $("cursor").value && jumped.from === $("from").value) {
            index = jumped.index + direction;
          } else {
            const c = cursorTime();
            index = direction > 0 ? records.findIndex(r => Date.parse(r.time) > c)
              : records.length - 1 - [...records].reverse().findIndex(r => Date.parse(r.time) < c);
            if (direction < 0 && index === records.length) index = -1;
          }
          if (index < 0 || index >= records.length) return;
          await jumpTo(index);
        }
        // What answers resting on a record assume (its `assumptions`), as a clause.
        function assumedText(r) {
          return r.assumptions && r.assumptions.length ? "; answers resting on it assume " + r.assumptions.join(", ") : "";
        }
        // Goes to device record `index` of the overview: centred, its why open, marked in the list.
        async function jumpTo(index) {
          const records = overview.records, r = records[index], t = Date.parse(r.time);
          await centre(t);
          const event = report.events.find(e => e.seq === r.seq);
          const stack = r.stack || (event && recordStack(event)) || (report.stacks[0] && report.stacks[0].stack);
          if (stack) await why(t, stack);
          const o = judged.get(r.seq);
          $("evidence").textContent = "Device record " + (index + 1) + " of " + records.length + ": event " + r.seq + ", " + r.type + (r.stack ? " of " + r.stack : "") + ", " + clock(t) + ": " + (o ? o.judgement : "not judged") + assumedText(r);
          for (const item of $("records").children) item.removeAttribute("aria-current");
          const item = $("records").children[index];
          if (item) { item.setAttribute("aria-current", "true"); item.scrollIntoView({ block: "nearest" }); }
          $("evidence").setAttribute("data-seq", String(r.seq));
          jumped = { index, cursor: $("cursor").value, from: $("from").value };
        }
        function listenForNavigation() {
          $("prevRecord").addEventListener("click", () => jump(-1));
          $("nextRecord").addEventListener("click", () => jump(1));
          $("zoomIn").addEventListener("click", () => zoom(0.5));
          $("zoomOut").addEventListener("click", () => zoom(2));
          $("fit").addEventListener("click", fit);
          $("search").addEventListener("keydown", e => { if (e.key === "Enter") search($("search").value); });
          $("utc").addEventListener("change", () => { draw(); moveCursor(); });
          document.addEventListener("keydown", e => {
            if (e.target.matches && e.target.matches("input:not([type=range]):not([type=checkbox]), select")) return;
            const act = { n: () => jump(1), p: () => jump(-1), "+": () => zoom(0.5), "=": () => zoom(0.5), "-": () => zoom(2),
              a: () => pan(-0.25), d: () => pan(0.25), w: () => zoom(0.5), s: () => zoom(2) }[e.key];
            if (act && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); act(); }
          });
          // The overview: click or drag the box to move the view there.
          const whole = $("overview");
          let moving = false;
          const moveTo = e => {
            const [a, b] = interval(), r = whole.getBoundingClientRect();
            setView(fromOx(e.clientX - r.left) - (b - a) / 2, (b - a) / 1000);
            drawOverview();
          };
          whole.addEventListener("pointerdown", e => { if (!overview) return; moving = true; whole.setPointerCapture(e.pointerId); moveTo(e); });
          whole.addEventListener("pointermove", e => { if (moving) moveTo(e); });
          whole.addEventListener("pointerup", () => { if (moving) { moving = false; load(); } });
          // The lanes: drag to zoom to a range, shift-drag to pan, the wheel to zoom at the pointer.
          const lanes = $("lanes"), selection = document.createElement("div");
          selection.id = "selection"; document.body.appendChild(selection);
          let drag = null;
          const at = e => { const [a, b] = interval(), r = lanes.getBoundingClientRect(); return a + (b - a) * (e.clientX - r.left - LEFT) / (W - LEFT); };
          lanes.addEventListener("pointerdown", e => { if (e.button === 0) drag = { x: e.clientX, t: at(e), shift: e.shiftKey }; });
          lanes.addEventListener("pointermove", e => {
            if (!drag || drag.shift || Math.abs(e.clientX - drag.x) < 6) return;
            const r = lanes.getBoundingClientRect();
            Object.assign(selection.style, { display: "block", left: Math.min(drag.x, e.clientX) + scrollX + "px", width: Math.abs(e.clientX - drag.x) + "px",
              top: r.top + scrollY + "px", height: r.height + "px" });
          });
          addEventListener("pointerup", e => {
            if (!drag) return;
            const start = drag; drag = null; selection.style.display = "none";
            if (Math.abs(e.clientX - start.x) < 6) return;
            const [a, b] = interval(), t = at(e);
            if (start.shift) { setView(a - (t - start.t), (b - a) / 1000); } else { setView(Math.min(start.t, t), Math.abs(t - start.t) / 1000); }
            load();
          });
          // A turn of the wheel redraws the axis at once and loads the lanes when it stops.
          let settle = null;
          lanes.addEventListener("wheel", e => {
            e.preventDefault();
            const [a, b] = interval(), t = at(e), factor = e.deltaY > 0 ? 2 : 0.5;
            setView(t - (t - a) * factor, (b - a) * factor / 1000);
            drawAxis(); drawOverview();
            clearTimeout(settle); settle = setTimeout(load, 150);
          }, { passive: false });
        }

        """#
}
