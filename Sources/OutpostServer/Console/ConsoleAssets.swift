/// The console's style sheet and its one script, served from `/admin/static/` (the
/// Content-Security-Policy allows scripts and styles from the console's own origin only, so
/// nothing is inline). The import script uploads the file with progress and writes the report
/// with `textContent`: the server's words are never parsed as HTML.
enum ConsoleAssets {
    static let css = """
        :root { --ink: #1f2933; --muted: #52606d; --line: #d9dee3; --accent: #0b766d; --bad: #b91c1c; --good: #15803d; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: #f6f7f9; }
        .bar { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.5rem; background: var(--ink); color: #fff; }
        .bar a { color: #fff; text-decoration: none; }
        .bar nav.sections { display: flex; gap: 1.25rem; }
        .bar nav.sections a { padding: .15rem 0; border-bottom: 2px solid transparent; }
        .bar nav.sections a[aria-current="page"] { border-bottom-color: #fff; font-weight: 600; }
        .brand { font-weight: 700; }
        .signout { margin-left: auto; display: flex; gap: .75rem; align-items: center; }
        .who, .role { color: #cbd2d9; font-size: .85rem; }
        .skip { position: absolute; left: -999px; top: .5rem; z-index: 10; padding: .3rem .6rem; background: #fff; color: var(--ink); border-radius: 4px; }
        .skip:focus { left: 1rem; }
        :focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
        main:focus { outline: none; }
        th[aria-sort="ascending"] a::after { content: " ▲"; }
        th[aria-sort="descending"] a::after { content: " ▼"; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
        h1 { margin: .2rem 0 1rem; }
        .card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1rem; display: grid; gap: .75rem; max-width: 40rem; }
        .card.inline { display: flex; flex-wrap: wrap; align-items: end; max-width: none; }
        .card.narrow { max-width: 24rem; }
        label { display: grid; gap: .25rem; font-size: .9rem; color: var(--muted); }
        label.check { display: flex; align-items: center; }
        input, select, button { font: inherit; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 4px; }
        button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
        .bar button { background: transparent; border-color: #52606d; }
        table.list { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
        table.list th, table.list td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); }
        table.list th { font-size: .8rem; text-transform: uppercase; color: var(--muted); }
        .notice { background: #e3f4f1; border-left: 4px solid var(--accent); padding: .6rem .8rem; }
        .error { background: #fdecec; border-left: 4px solid var(--bad); padding: .6rem .8rem; }
        .field-error { display: block; color: var(--bad); font-weight: 600; margin-top: .2rem; }
        input[aria-invalid="true"] { border-color: var(--bad); outline: 2px solid var(--bad); }
        .hint, .count, .crumbs { color: var(--muted); font-size: .9rem; }
        .tabs { display: flex; gap: 1rem; margin-bottom: 1rem; }
        .event-facts { margin: -.5rem 0 1rem; color: #52606d; }
        .tag { font-size: .75rem; background: #e3f4f1; color: var(--accent); border-radius: 3px; padding: 0 .3rem; }
        .pager { display: flex; gap: 1rem; }
        progress { width: 100%; }
        .inline-form { display: inline; }
        button.link { background: none; border: none; color: var(--bad); padding: 0 .3rem; text-decoration: underline; }
        button.link.check-in-row, button#tv-fullscreen { color: var(--accent); }
        .rules { color: var(--muted); font-size: .9rem; margin: 0; }
        svg.bars text, svg.chart text { font-size: 13px; fill: var(--ink); }
        svg.bars rect.track { fill: #e4e7eb; }
        svg.bars rect.fill, svg.chart rect { fill: var(--accent); }
        svg.chart line.axis { stroke: var(--line); stroke-width: 2; }
        svg.chart line.grid { stroke: var(--line); stroke-dasharray: 2 4; }
        svg.chart text.tick { font-size: 11px; fill: var(--muted); }
        body.tv header.bar, body.tv .crumbs { display: none; }
        body.tv main { max-width: none; padding: 1rem 2rem; font-size: 1.5rem; }
        body.tv h1 { font-size: 2.4rem; }
        body.tv #total { font-size: 4rem; margin: .5rem 0; }
        body.tv svg.bars, body.tv svg.chart { width: 100%; height: auto; }
        body.tv table.list { font-size: 1.3rem; }
        svg { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5rem; max-width: 100%; height: auto; }
        tr.attention td { background: #fff4e5; }
        button.danger { background: var(--bad); border-color: var(--bad); }
        #live-state.live { color: var(--good); font-weight: 600; }
        """

    /// Keeps the door dashboard live: a server-sent event carries the whole view (the server
    /// computed every width and time); this copies text with `textContent` and geometry with
    /// `setAttribute`, never HTML. When the stream ends for good (the session ended), the page
    /// reloads, which shows the sign-in page.
    static let dashboardScript = """
        "use strict";
        (function () {
          const root = document.getElementById("dashboard");
          if (!root || !window.EventSource) return;
          const svg = "http://www.w3.org/2000/svg";
          const state = document.getElementById("live-state");
          function element(name, attributes, text) {
            const node = document.createElementNS(svg, name);
            for (const key of Object.keys(attributes)) node.setAttribute(key, String(attributes[key]));
            if (text !== undefined) node.textContent = text;
            return node;
          }
          function rows(tableId, items, cells, marked) {
            const body = document.querySelector("#" + tableId + " tbody");
            body.textContent = "";
            for (const item of items) {
              const row = document.createElement("tr");
              if (marked && marked(item)) row.className = "attention";
              for (const value of cells(item)) {
                const cell = document.createElement("td");
                cell.textContent = String(value);
                row.append(cell);
              }
              body.append(row);
            }
          }
          function render(view) {
            document.getElementById("total").textContent = view.total;
            document.getElementById("updated").textContent = view.updated;
            const bars = document.getElementById("bars");
            bars.textContent = "";
            bars.setAttribute("height", String(view.barsHeight));
            bars.setAttribute("viewBox", "0 0 580 " + view.barsHeight);
            for (const bar of view.bars) {
              const group = element("g", { class: "bar" });
              group.append(
                element("text", { x: 0, y: bar.textY }, bar.name),
                element("rect", { class: "track", x: 190, y: bar.rectY, width: 300, height: 16 }),
                element("rect", { class: "fill", x: 190, y: bar.rectY, width: bar.width, height: 16 }),
                element("text", { class: "value", x: 498, y: bar.textY }, bar.label));
              bars.append(group);
            }
            const columns = document.getElementById("columns");
            columns.textContent = "";
            for (const column of view.columns) {
              const rect = element("rect", { x: column.x, y: column.y, width: 8, height: column.height });
              rect.append(element("title", {}, column.title));
              columns.append(rect);
            }
            const chart = document.getElementById("chart");
            const left = Number(chart.dataset.left), right = Number(chart.dataset.right);
            const scale = document.getElementById("scale");
            scale.textContent = "";
            for (const mark of view.scale) {
              scale.append(
                element("line", { class: "grid", x1: left, y1: mark.y, x2: right, y2: mark.y }),
                element("text", { class: "tick", x: left, dx: -6, y: mark.y + 4, "text-anchor": "end" }, mark.label));
            }
            const ticks = document.getElementById("ticks");
            ticks.textContent = "";
            for (const tick of view.ticks) {
              ticks.append(element("text", { class: "tick", x: tick.x, y: Number(chart.dataset.tickY),
                "text-anchor": "middle" }, tick.label));
            }
            document.getElementById("recent-empty").hidden = view.recent.length > 0;
            document.getElementById("devices-empty").hidden = view.devices.length > 0;
            document.getElementById("chart-caption").textContent = view.chartCaption;
            rows("recent", view.recent, function (r) { return [r.time, r.guest, r.accessType, r.by, r.device, r.method]; });
            rows("devices", view.devices, function (d) { return [d.device, d.user, d.lastContact, d.pending]; },
              function (d) { return d.attention; });
            rows("zones", view.zones, function (z) { return [z.name, z.inside, z.entries, z.exits, z.violations]; },
              function (z) { return z.attention; });
            document.getElementById("zones-section").hidden = view.zones.length === 0;
            rows("mesh", view.mesh, function (m) { return [m.device, m.user, m.met, m.admitted, m.lastReport]; },
              function (m) { return m.attention; });
            document.getElementById("mesh-section").hidden = view.mesh.length === 0;
          }
          const full = document.getElementById("tv-fullscreen");
          if (full) {
            full.addEventListener("click", function () {
              if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
            });
          }
          const source = new EventSource(root.dataset.stream);
          source.addEventListener("open", function () {
            state.textContent = "Live";
            state.className = "live";
          });
          source.addEventListener("dashboard", function (event) {
            let view;
            try { view = JSON.parse(event.data); } catch (e) { return; }
            render(view);
            root.dataset.updates = String(Number(root.dataset.updates || "0") + 1);
          });
          source.addEventListener("error", function () {
            state.className = "";
            if (source.readyState === EventSource.CLOSED) {
              state.textContent = "Not live: reloading…";
              window.setTimeout(function () { window.location.reload(); }, 5000);
            } else {
              state.textContent = "Reconnecting…";
            }
          });
        })();
        """

    static let importScript = """
        "use strict";
        (function () {
          const form = document.getElementById("import-form");
          if (!form) return;
          const progress = document.getElementById("import-progress");
          const report = document.getElementById("import-report");
          const summary = document.getElementById("import-summary");
          const rows = document.querySelector("#import-errors tbody");
          const input = document.getElementById("csv-file");
          const columns = document.getElementById("import-columns");
          const pickers = Array.from(document.querySelectorAll("select.import-column"));
          // Other names a column of each field often has.
          const aliases = {
            name: ["name", "full name", "guest", "attendee"],
            email: ["email", "e-mail", "mail", "email address", "e-mail address"],
            access_type: ["access_type", "access type", "ticket", "ticket type", "type", "category"],
            notes: ["notes", "note", "remarks", "comment", "comments"]
          };
          // The header row's fields (RFC 4180: quoted fields, doubled quotes).
          function header(text) {
            const quote = String.fromCharCode(34);
            const fields = [];
            let field = "", quoted = false;
            for (let i = 0; i < text.length; i++) {
              const c = text[i];
              const code = text.charCodeAt(i);
              if (quoted) {
                if (c === quote && text[i + 1] === quote) { field += quote; i++; }
                else if (c === quote) quoted = false;
                else field += c;
              } else if (c === quote) quoted = true;
              else if (c === ",") { fields.push(field.trim()); field = ""; }
              else if (code === 13 || code === 10) break;
              else field += c;
            }
            fields.push(field.trim());
            return fields.filter(function (f) { return f.length > 0; });
          }
          input.addEventListener("change", function () {
            const file = input.files[0];
            if (!file) return;
            file.slice(0, 65536).text().then(function (text) {
              const names = header(text.charCodeAt(0) === 0xFEFF ? text.slice(1) : text);
              for (const picker of pickers) {
                while (picker.options.length > 1) picker.remove(1);
                const wanted = aliases[picker.dataset.field] || [picker.dataset.field];
                for (const name of names) {
                  const option = document.createElement("option");
                  option.value = name;
                  option.textContent = name;
                  if (!picker.value && wanted.indexOf(name.toLowerCase()) >= 0) option.selected = true;
                  picker.append(option);
                }
              }
              columns.hidden = false;
            });
          });
          form.addEventListener("submit", function (event) {
            event.preventDefault();
            const file = input.files[0];
            if (!file) return;
            const query = pickers.filter(function (picker) { return picker.value; }).map(function (picker) {
              return "column." + picker.dataset.field + "=" + encodeURIComponent(picker.value);
            });
            const request = new XMLHttpRequest();
            request.open("POST", form.dataset.action + (query.length ? "?" + query.join("&") : ""));
            request.setRequestHeader("Content-Type", "text/csv");
            request.setRequestHeader("X-CSRF-Token", form.dataset.csrf);
            progress.hidden = false;
            progress.value = 0;
            request.upload.addEventListener("progress", function (e) {
              if (e.lengthComputable) progress.value = Math.round((e.loaded / e.total) * 100);
            });
            request.addEventListener("load", function () {
              progress.value = 100;
              report.hidden = false;
              rows.textContent = "";
              let answer = {};
              try { answer = JSON.parse(request.responseText); } catch (e) { answer = { message: request.responseText }; }
              if (request.status !== 200) {
                summary.textContent = answer.message || ("The import failed (" + request.status + ").");
                summary.className = "error";
                return;
              }
              summary.className = "notice";
              summary.textContent = answer.imported + " imported, " + answer.skipped + " already there, " +
                answer.errors.length + " line(s) with errors.";
              for (const item of answer.errors) {
                const row = document.createElement("tr");
                const line = document.createElement("td");
                line.textContent = String(item.line);
                const error = document.createElement("td");
                error.textContent = item.error;
                row.append(line, error);
                rows.append(row);
              }
            });
            request.addEventListener("error", function () {
              report.hidden = false;
              summary.className = "error";
              summary.textContent = "The upload did not reach the server; nothing was lost, try again.";
            });
            request.send(file);
          });
        })();
        """

    /// The new-event form: when the tenant has no time zone for new events, the browser's own
    /// (when it is one the server knows, from the form's list).
    static let eventsScript = """
        "use strict";
        (function () {
          const field = document.querySelector("input[data-browser-zone]");
          if (!field || typeof Intl === "undefined") return;
          const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          const known = Array.from(document.querySelectorAll("#zones option")).some(function (option) {
            return option.value === zone;
          });
          if (zone && known) field.value = zone;
        })();
        """
}
