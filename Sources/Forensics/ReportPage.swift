/// The report's HTML: one file, its own CSS and script, no network. The data arrives as
/// JSON in a `<script type="application/json">` element (made script-safe by
/// `ReportData.scriptSafe`) and is rendered with DOM calls that set text, never markup.
package enum ReportPage {
    package static func html(dataJSON: String, title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'none'">
        <title>\(escape(title))</title>
        <style>
        body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
        h1 { font-size: 18px; } h2 { font-size: 15px; margin: 18px 0 4px; }
        .note { color: #666; } .unverified { color: #b00; font-weight: bold; }
        svg { background: #fafafa; border: 1px solid #ddd; }
        .decision { cursor: pointer; } .decision:hover { stroke: #000; stroke-width: 2; }
        #details { border: 1px solid #ccc; padding: 8px; margin-top: 12px; min-height: 40px; white-space: pre-wrap; }
        .legend span { display: inline-block; margin-right: 12px; }
        .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
        </style>
        </head>
        <body>
        <h1 id="title"></h1>
        <p class="note" id="policy"></p>
        <div class="note" id="assumptions"></div>
        <div class="legend" id="legend"></div>
        <div id="stacks"></div>
        <h2>Relevance (normalised score, 0 to 1)</h2>
        <div id="relevance"></div>
        <h2>Context and events</h2>
        <div id="context"></div>
        <h2>Decision</h2>
        <div id="details">Choose a decision (a dot on a lane) to see its reasons and the events they cite.</div>
        <script type="application/json" id="report-data">\(dataJSON)</script>
        <script>
        "use strict";
        const data = JSON.parse(document.getElementById("report-data").textContent);
        const NS = "http://www.w3.org/2000/svg";
        const W = 1100, L = 170, R = 20;
        const x = t => L + (W - L - R) * (t - data.from) / Math.max(1, data.to - data.from);
        function el(name, attrs, parent) {
          const e = document.createElementNS(NS, name);
          for (const k in attrs) e.setAttribute(k, attrs[k]);
          if (parent) parent.appendChild(e);
          return e;
        }
        function text(parent, s, attrs) { const t = el("text", attrs || {}, parent); t.textContent = s; return t; }
        function tip(node, s) { const t = el("title", {}, node); t.textContent = s; }
        function color(s) { let h = 0; for (const c of s) h = (h * 31 + c.codePointAt(0)) >>> 0; return "hsl(" + (h % 360) + ",55%,60%)"; }
        function clock(ms) { return new Date(ms).toISOString().replace("T", " ").replace(".000Z", "Z"); }
        function axis(svg, y) {
          const hours = Math.max(1, Math.round((data.to - data.from) / 3600000));
          const every = Math.max(1, Math.ceil(hours / 12));
          for (let t = data.from; t <= data.to; t += every * 3600000) {
            el("line", { x1: x(t), x2: x(t), y1: 0, y2: y, stroke: "#e4e4e4" }, svg);
            text(svg, new Date(t).toISOString().slice(11, 16), { x: x(t) + 2, y: y - 2, "font-size": 10, fill: "#888" });
          }
        }
        document.getElementById("title").textContent = "StackLedger report: " + data.device + ", " + data.fromText + " to " + data.toText;
        const policy = document.getElementById("policy");
        policy.textContent = "Policy " + data.policy.name + " v" + data.policy.version + " (" + data.policy.digest + "), " + data.tool +
          ": StackLedger's model of the Smart Stack, not Apple's algorithm.";
        if (!data.verified) { const u = document.createElement("div"); u.className = "unverified"; u.textContent = "UNVERIFIED: the store failed its quick check."; policy.appendChild(u); }
        for (const a of data.assumptions) {
          const line = document.createElement("div");
          line.textContent = "Assumes " + a.code + " (" + a.stack + "): " + a.detail;
          document.getElementById("assumptions").appendChild(line);
        }
        const events = new Map(data.events.map(e => [e.seq, e]));
        function show(d) {
          const box = document.getElementById("details");
          box.textContent = "";
          const head = document.createElement("div");
          head.textContent = clock(Date.parse(d.time)) + "  " + d.stack + ": " + d.action + " " + d.widget.kind + " (" + d.widget.instance + ")" +
            (d.from ? ", top before: " + d.from.kind : "");
          box.appendChild(head);
          for (const r of d.reasons) {
            const line = document.createElement("div");
            line.textContent = "  " + r.code + " [" + (r.basis === "documented" ? "Apple, rule " + r.rule : "policy, " + (r.parameters || [r.rule]).join(", ")) + "] " + r.detail;
            box.appendChild(line);
            for (const seq of r.events) {
              const e = events.get(seq);
              const c = document.createElement("div");
              c.textContent = "      event " + seq + (e ? ": " + clock(e.time) + " " + e.type + " " + (e.app || "") + " " + e.summary : " (outside the interval)");
              box.appendChild(c);
            }
          }
        }
        const stacksDiv = document.getElementById("stacks");
        const kinds = new Set();
        for (const s of data.stacks) {
          const h = document.createElement("h2"); h.textContent = s.stack + " (" + s.platform + ")"; stacksDiv.appendChild(h);
          const svg = el("svg", { width: W, height: 80 }); stacksDiv.appendChild(svg);
          axis(svg, 80);
          text(svg, "on top", { x: 4, y: 24 }); text(svg, "suggestions", { x: 4, y: 54 });
          for (const l of s.lanes) {
            kinds.add(l.kind);
            const width = Math.max(1, x(l.end) - x(l.start));
            const r = el("rect", { x: x(l.start), y: 10, width: width, height: 20, fill: color(l.kind), opacity: l.suggested ? 0.6 : 1 }, svg);
            tip(r, l.kind + " (" + l.instance + ", " + l.app + ")" + (l.suggested ? ", suggested" : "") + "\\n" + clock(l.start) + " to " + clock(l.end));
            if (width > 40) text(svg, l.kind, { x: x(l.start) + 3, y: 24, "font-size": 11, class: "span-label" });
          }
          for (const l of s.suggestions) {
            const r = el("rect", { x: x(l.start), y: 42, width: Math.max(1, x(l.end) - x(l.start)), height: 16, fill: color(l.kind), opacity: 0.6 }, svg);
            tip(r, "suggested " + l.kind + " (" + l.instance + ")\\n" + clock(l.start) + " to " + clock(l.end));
          }
          for (const d of data.decisions.filter(d => d.stack === s.stack)) {
            const c = el("circle", { cx: x(Date.parse(d.time)), cy: 20, r: 5, fill: "#fff", stroke: "#333", class: "decision" }, svg);
            tip(c, d.action + " " + d.widget.kind + " at " + clock(Date.parse(d.time)));
            c.addEventListener("click", () => show(d));
          }
        }
        for (const s of data.stacks) for (const l of s.suggestions) kinds.add(l.kind);
        const legend = document.getElementById("legend");
        for (const kind of [...kinds].sort()) {
          const item = document.createElement("span"); const box = document.createElement("i");
          box.className = "swatch"; box.style.background = color(kind);
          item.appendChild(box); item.appendChild(document.createTextNode(kind)); legend.appendChild(item);
        }
        const rel = el("svg", { width: W, height: 40 + 18 * data.relevance.length });
        document.getElementById("relevance").appendChild(rel);
        axis(rel, 40 + 18 * data.relevance.length);
        data.relevance.forEach((w, i) => {
          const y0 = 16 + 18 * i;
          text(rel, w.kind, { x: 4, y: y0 + 10 });
          for (const [start, end, score, normalized] of w.spans) {
            const bar = el("rect", { x: x(start), y: y0 + 14 * (1 - normalized), width: Math.max(1, x(end) - x(start)), height: Math.max(1, 14 * normalized), fill: color(w.kind) }, rel);
            tip(bar, w.kind + ": score " + score + ", normalised " + normalized + ", " + clock(start) + " to " + clock(end));
          }
        });
        const ctxNames = [...new Set(data.contexts.map(c => c.context))];
        const ctx = el("svg", { width: W, height: 50 + 18 * ctxNames.length });
        document.getElementById("context").appendChild(ctx);
        axis(ctx, 50 + 18 * ctxNames.length);
        ctxNames.forEach((name, i) => text(ctx, name.slice(0, 28), { x: 4, y: 28 + 18 * i, "font-size": 10 }));
        for (const c of data.contexts) {
          const i = ctxNames.indexOf(c.context);
          const r = el("rect", { x: x(c.start), y: 18 + 18 * i, width: Math.max(1, x(c.end) - x(c.start)), height: 14, fill: color(c.context), opacity: 0.5 }, ctx);
          tip(r, c.context + ": " + clock(c.start) + " to " + clock(c.end) + " (event " + c.seq + ")");
        }
        const markY = 24 + 18 * ctxNames.length;
        text(ctx, "events", { x: 4, y: markY + 8 });
        for (const e of data.events) {
          const m = el("line", { x1: x(e.time), x2: x(e.time), y1: markY, y2: markY + 12, stroke: color(e.type) }, ctx);
          tip(m, "event " + e.seq + ": " + e.type + " " + (e.app || "") + " " + e.summary);
        }
        document.body.setAttribute("data-rendered", "yes");
        </script>
        </body>
        </html>

        """
    }

    /// Text for an HTML text node.
    package static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
