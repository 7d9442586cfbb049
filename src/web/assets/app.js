// The ttr-opt page: polls /api/status, draws the map, the score curve and
// the tickets table, and turns the designer's edits into a scenario (the
// documented file format) that the server computes as a variant. The map
// itself is drawn by map.js (TtrMap), shared with the play page.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const page = {
  status: null,      // the last /api/status
  statusText: "",
  cars: null,        // the selected budget
  mode: "plan",
  showVariant: false,
  scenario: { name: "web edits", description: "", changes: [] },
  selectedRoute: null,
  sort: { key: "label", down: false },
  boardId: null,     // the base run whose board the selects show
  posted: "",        // the scenario last sent
};

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(tag === "svg" || attrs.svg ? SVG : "http://www.w3.org/1999/xhtml", tag);
  for (const [k, v] of Object.entries(attrs)) if (k !== "svg") node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function svg(tag, attrs = {}, text) { return el(tag, { ...attrs, svg: true }, text); }

function showError(message) {
  const box = $("error");
  box.hidden = !message;
  box.textContent = message || "";
}

async function api(method, path, body) {
  const response = await fetch(path, { method, body });
  const text = await response.text();
  let value = null;
  try { value = text ? JSON.parse(text) : null; } catch (_) { value = { error: text }; }
  if (!response.ok) throw new Error((value && value.error) || response.statusText);
  return value;
}

// ---- The runs -----------------------------------------------------------

function base() { return page.status && page.status.base; }
function variant() { return page.status && page.status.variant; }

/// The budget `cars` of a run, if proven (the variant's first budget may be
/// proven before the others).
function budgetOf(run, cars) {
  if (!run) return null;
  const b = run.budgets.find((x) => x.cars === cars);
  if (b) return b;
  return run.focus && run.focus.cars === cars ? run.focus : null;
}

/// The best plan found so far at `cars` while the run proves that budget
/// first (it carries the bound on the optimum), if it is not proven yet.
function soFarOf(run, cars) {
  if (!run || budgetOf(run, cars)) return null;
  const b = run.best_so_far;
  return b && b.cars === cars ? b : null;
}

async function poll() {
  try {
    if (page.suggesting) drawSuggestion(await api("GET", "/api/suggest"));
    const status = await api("GET", "/api/status");
    const text = JSON.stringify(status);
    if (text !== page.statusText) {
      page.statusText = text;
      page.status = status;
      render();
    }
  } catch (e) {
    $("progress").textContent = "the server is not answering (" + e.message + ")";
  }
}

function describe(run, what) {
  if (!run) return "";
  const n = run.board.cars;
  const proven = run.budgets.length;
  const state = {
    queued: "waiting", running: "computing", done: "done", cancelled: "cancelled", failed: "failed",
  }[run.state];
  const detail = run.state === "done" ? run.message : `${run.message}, ${run.seconds.toFixed(1)} s`;
  return `${what}: ${state}, ${proven} of ${n} budgets proven (${detail})`;
}

// ---- Rendering ------------------------------------------------------------

function render() {
  const b = base();
  if (!b) return;
  $("title").textContent = "ttr-opt: " + (b.board.title || b.board.name);
  const v = variant();
  $("progress").textContent = [describe(b, "base"), describe(v, "variant")].filter(Boolean).join(" · ");
  if (v && v.state === "failed") showError("The variant failed: " + v.message);
  const slider = $("budget");
  const top = Math.max(b.board.cars, v ? v.board.cars : 0);
  slider.max = top;
  if (page.boardId !== b.id) {
    page.boardId = b.id;
    page.cars = b.board.cars;
    fillCitySelects(b.board);
    // A suggestion tunes one board: the server drops it with the board.
    page.suggesting = false;
    $("suggest").disabled = false;
    $("suggest-status").textContent = "";
    $("suggestions").replaceChildren();
  }
  page.cars = Math.min(page.cars || top, top);
  slider.value = page.cars;
  $("budget-value").textContent = page.cars;
  for (const node of document.querySelectorAll(".at-cars")) node.textContent = page.cars;
  drawMap();
  drawCurve();
  drawDiff();
  drawChanges();
  drawTickets();
}

function shownRun() {
  const v = variant();
  return page.showVariant && v ? v : base();
}

function drawMap() {
  const run = shownRun();
  const board = run.board;
  const budget = budgetOf(run, page.cars) || soFarOf(run, page.cars);
  const inPlan = new Set(budget ? budget.routes : []);
  const heat = run.heat.routes;
  TtrMap.draw($("map"), board, {
    track: ({ route: r }) => {
      const title = `${r.label}: ${r.length} cars, ${r.points} points` +
        (page.mode === "heat" ? `, in ${Math.round(100 * (heat[r.label] || 0))}% of the optima` : "");
      const onClick = () => openRouteEditor(r, board);
      if (page.mode === "heat") {
        const share = heat[r.label] || 0;
        return { stroke: heatColour(share), width: 1 + 3 * share, opacity: 1, title, onClick };
      }
      const chosen = inPlan.has(r.label);
      return { opacity: chosen ? 1 : 0.45, halo: chosen, title, onClick };
    },
  });
}

function heatColour(share) {
  // Pale grey (never in an optimum) to dark red (in every one).
  if (share <= 0) return "#d8d8d8";
  const t = Math.min(1, share);
  const r = Math.round(250 - 90 * t), g = Math.round(200 - 190 * t), b = Math.round(120 - 100 * t);
  return `rgb(${r},${g},${b})`;
}

/// Round values from `low` to `high` for an axis: steps of 1, 2 or 5
/// times a power of ten, about five of them.
function ticks(low, high) {
  const span = Math.max(high - low, 1);
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw));
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}

function drawCurve() {
  const chart = $("curve");
  chart.replaceChildren();
  const runs = [[base(), "#2c6fbb", "base"], [variant(), "#e07b00", "variant"]].filter(([r]) => r);
  const top = Number($("budget").max);
  let best = 1;
  for (const [run] of runs) {
    for (const b of run.budgets) best = Math.max(best, b.score);
    const soFar = soFarOf(run, page.cars);
    if (soFar) best = Math.max(best, soFar.bound);
  }
  const W = 420, H = 240, L = 40, B = 35, T = 22, R = 10;
  const x = (c) => L + ((c - 1) / Math.max(top - 1, 1)) * (W - L - R);
  const y = (s) => H - B - (s / best) * (H - B - T);
  chart.append(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#999" }));
  chart.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#999" }));
  // Both axes get round ticks: points up the side, cars along the bottom.
  for (const s of ticks(0, best)) {
    chart.append(svg("line", { class: "y-tick", x1: L - 4, y1: y(s), x2: L, y2: y(s), stroke: "#999" }));
    chart.append(svg("text", { x: L - 6, y: y(s) + 3, "font-size": 10, "text-anchor": "end" }, s));
  }
  for (const c of ticks(1, top)) {
    chart.append(svg("line", { class: "x-tick", x1: x(c), y1: H - B, x2: x(c), y2: H - B + 4, stroke: "#999" }));
    chart.append(svg("text", { x: x(c), y: H - B + 14, "font-size": 10, "text-anchor": "middle" }, c));
  }
  chart.append(svg("text", { x: (L + W - R) / 2, y: H - 4, "font-size": 10, "text-anchor": "middle" }, "train cars"));
  chart.append(svg("text", { x: 2, y: 10, "font-size": 10 }, "points"));
  // The legend: one entry per curve drawn, in its colour.
  runs.forEach(([, colour, name], i) => {
    const lx = W - R - 150 + i * 75;
    chart.append(svg("line", { x1: lx, y1: 8, x2: lx + 16, y2: 8, stroke: colour, "stroke-width": 2 }));
    chart.append(svg("text", { class: "legend", x: lx + 20, y: 12, "font-size": 10, fill: colour }, name));
  });
  chart.append(svg("line", { x1: x(page.cars), y1: T, x2: x(page.cars), y2: H - B, stroke: "#aaa", "stroke-dasharray": "3 3" }));
  for (const [run, colour] of runs) {
    const points = run.budgets.map((b) => `${x(b.cars)},${y(b.score)}`).join(" ");
    chart.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2 }));
    const at = budgetOf(run, page.cars);
    if (at) chart.append(svg("circle", { cx: x(at.cars), cy: y(at.score), r: 4, fill: colour }));
    // Not proven yet: the best plan so far (a ring) and the bound above it.
    const soFar = soFarOf(run, page.cars);
    if (soFar) {
      chart.append(svg("line", { x1: x(soFar.cars), y1: y(soFar.score), x2: x(soFar.cars), y2: y(soFar.bound), stroke: colour, "stroke-dasharray": "2 2" }));
      chart.append(svg("circle", { cx: x(soFar.cars), cy: y(soFar.score), r: 4, fill: "white", stroke: colour, "stroke-width": 2 }));
    }
  }
  chart.onclick = (event) => {
    const box = chart.getBoundingClientRect();
    const c = Math.round(1 + ((event.clientX - box.left) * (W / box.width) - L) / (W - L - R) * (top - 1));
    setCars(Math.max(1, Math.min(top, c)));
  };
}

function drawDiff() {
  const b = budgetOf(base(), page.cars), v = budgetOf(variant(), page.cars);
  const box = $("diff");
  const line = [];
  // A budget being proven: the best plan so far and the bound, told apart
  // from an optimum.
  const soFar = (run, who) => {
    const s = soFarOf(run, page.cars);
    return s && `${who}: <strong id="${who.toLowerCase()}-so-far">${s.score}</strong> points so far, the optimum at most ${s.bound} (proving…)`;
  };
  if (b) line.push(`Base: <strong id="base-score">${b.score}</strong> points`);
  else if (soFar(base(), "Base")) line.push(soFar(base(), "Base"));
  if (variant()) {
    line.push(v ? `variant: <strong id="variant-score">${v.score}</strong> points (<span class="${v.score >= (b ? b.score : 0) ? "gain" : "loss"}">${b ? signed(v.score - b.score) : ""}</span>)`
      : soFar(variant(), "Variant") || "variant: computing…");
  }
  $("score").innerHTML = line.join(", ");
  if (!variant()) {
    box.innerHTML = '<p class="hint">Edit a ticket or a route to see a variant.</p>';
    return;
  }
  if (!b || !v) { box.innerHTML = '<p class="hint">waiting for both optima at this budget…</p>'; return; }
  const minus = (p, q) => p.filter((x) => !q.includes(x));
  const groups = [
    ["Tickets entering the plan", minus(v.tickets, b.tickets), "gain"],
    ["Tickets leaving the plan", minus(b.tickets, v.tickets), "loss"],
    ["Routes entering the plan", minus(v.routes, b.routes), "gain"],
    ["Routes leaving the plan", minus(b.routes, v.routes), "loss"],
  ];
  box.replaceChildren();
  for (const [title, items, cls] of groups) {
    const p = el("p", {}, `${title}: ${items.length ? "" : "none"}`);
    box.append(p);
    if (items.length) {
      const ul = el("ul", { class: cls });
      for (const item of items) ul.append(el("li", {}, item));
      box.append(ul);
    }
  }
}

function signed(n) { return n > 0 ? "+" + n : String(n); }

// ---- Tickets table -----------------------------------------------------------

function ticketRows() {
  const b = base();
  const values = new Map((b.tickets || []).map((t) => [t.name, t]));
  return b.board.tickets.map((t) => {
    const value = values.get(t.label);
    return {
      ticket: t,
      label: t.label,
      points: t.points,
      cheapest: value ? value.cheapest_cars : null,
      ppc: value ? value.points_per_car : null,
      hand: value && value.hand_value !== undefined ? value.hand_value : null,
      membership: value && value.membership ? value.membership : null,
      // Raise by means something for a ticket in no optimum, lower by for
      // one in every optimum (as in the balance report).
      raise: value && value.membership === "none" ? value.raise_by : null,
      lower: value && value.membership === "every" ? value.lower_by : null,
      heat: b.heat.tickets[t.label] || 0,
    };
  });
}

let ticketsDrawn = "";
/// Redraws the table when what it shows changed, and never under the
/// designer's cursor (a value being typed would be lost).
function drawTickets() {
  const b = base();
  const signature = JSON.stringify([b.id, b.tickets, b.heat.tickets, page.scenario.changes, page.sort]);
  if (signature === ticketsDrawn) return;
  if (document.activeElement && document.activeElement.closest("#tickets")) return;
  ticketsDrawn = signature;
  const rows = ticketRows();
  const { key, down } = page.sort;
  rows.sort((p, q) => {
    const a = p[key], b = q[key];
    const order = a === null ? 1 : b === null ? -1 : typeof a === "string" ? a.localeCompare(b) : a - b;
    return down ? -order : order;
  });
  const body = document.querySelector("#tickets tbody");
  body.replaceChildren();
  const fmt = (v, digits = 0) => (v === null || v === undefined ? "–" : Number(v).toFixed(digits));
  for (const row of rows) {
    const t = row.ticket;
    const edited = findChange("set_ticket", t.from, t.to);
    const removed = findChange("remove_ticket", t.from, t.to);
    const tr = el("tr", { class: edited || removed ? "edited" : "", "data-ticket": t.label });
    tr.append(el("td", {}, t.label));
    const points = el("td");
    if (t.several_trips) {
      points.textContent = t.points;
      points.title = "a ticket with several trips: edit it in a scenario file";
    } else {
      const input = el("input", { type: "number", min: 0, max: 1000, value: edited ? edited.set_ticket.points : t.points, "aria-label": "points of " + t.label });
      input.addEventListener("change", () => {
        const value = Number(input.value);
        dropChange("set_ticket", t.from, t.to);
        if (value !== t.points) addChange({ set_ticket: { from: t.from, to: t.to, points: value } });
        edited_();
      });
      points.append(input);
    }
    tr.append(points);
    tr.append(el("td", {}, fmt(row.cheapest)));
    tr.append(el("td", {}, fmt(row.ppc, 2)));
    tr.append(el("td", {}, fmt(row.hand, 1)));
    tr.append(el("td", {}, row.membership || "–"));
    tr.append(el("td", {}, fmt(row.raise)));
    tr.append(el("td", {}, fmt(row.lower)));
    tr.append(el("td", {}, Math.round(100 * row.heat) + "%"));
    const cell = el("td");
    const box = el("input", { type: "checkbox", "aria-label": "remove " + t.label });
    box.checked = Boolean(removed);
    box.addEventListener("change", () => {
      dropChange("remove_ticket", t.from, t.to);
      if (box.checked) addChange({ remove_ticket: { from: t.from, to: t.to } });
      edited_();
    });
    cell.append(box);
    tr.append(cell);
    body.append(tr);
  }
}

// ---- Edits ----------------------------------------------------------------

function samePair(c, from, to) {
  return (c.from === from && c.to === to) || (c.from === to && c.to === from);
}
function findChange(kind, from, to) {
  return page.scenario.changes.find((c) => c[kind] && samePair(c[kind], from, to));
}
function dropChange(kind, from, to) {
  page.scenario.changes = page.scenario.changes.filter((c) => !(c[kind] && samePair(c[kind], from, to)));
}
function addChange(change) { page.scenario.changes.push(change); }

function changeText(change) {
  const [kind, v] = Object.entries(change)[0];
  const pair = `${v.from} – ${v.to}`;
  switch (kind) {
    case "set_ticket": return `ticket ${pair}: ${v.points} points`;
    case "remove_ticket": return `ticket ${pair} removed`;
    case "add_ticket": return `new ticket ${pair}: ${v.points} points`;
    case "set_route": return `route ${pair}:` + (v.length !== undefined ? ` ${v.length} cars` : "") + (v.points !== undefined ? ` ${v.points} points` : "");
    case "remove_route": return `route ${pair} blocked`;
    case "add_route": return `new route ${pair}: ${v.length} cars`;
    default: return JSON.stringify(change);
  }
}

function drawChanges() {
  const list = $("changes");
  list.replaceChildren();
  page.scenario.changes.forEach((change, i) => {
    const li = el("li", {}, changeText(change));
    const undo = el("button", { type: "button", title: "undo this edit" }, "×");
    undo.addEventListener("click", () => { page.scenario.changes.splice(i, 1); edited_(); });
    li.append(undo);
    list.append(li);
  });
  if (!page.scenario.changes.length) list.append(el("li", { class: "hint" }, "none yet"));
}

// ---- Suggestions (ttr-opt tune) --------------------------------------------

/// The suggestion's revisions, each change an edit to apply (answered as
/// any edit is), or where the search is.
function drawSuggestion(s) {
  const status = $("suggest-status");
  const list = $("suggestions");
  if (!s || s.board_run !== page.boardId) {
    status.textContent = "";
    list.replaceChildren();
    page.suggesting = Boolean(s && s.state === "running");
    return;
  }
  page.suggesting = s.state === "running";
  $("suggest").disabled = page.suggesting;
  if (s.state === "running") {
    status.textContent = `searching, ${s.seconds.toFixed(0)} s: ${s.message}`;
    return;
  }
  if (s.state !== "done") {
    status.textContent = `the search ${s.state}: ${s.message}`;
    return;
  }
  const found = s.revisions.length;
  status.textContent = found
    ? `the board misses ${s.base_misses} target(s); ${found} revision(s) miss fewer (${s.message})`
    : `no revision misses fewer than the board's ${s.base_misses} target(s) (${s.message})`;
  list.replaceChildren();
  s.revisions.forEach((r, i) => {
    const li = el("li", { class: "revision" }, `revision ${i + 1}: ${r.misses} target(s) missed, optimum ${r.optimum}`);
    const edits = el("ul");
    for (const c of r.changes) {
      const item = el("li", {}, `${c.text} `);
      const apply = el("button", { type: "button", class: "apply", title: "add this change to the edits" }, "Apply");
      apply.addEventListener("click", () => applySuggested(c));
      item.append(apply);
      edits.append(item);
    }
    li.append(edits);
    list.append(li);
  });
}

/// A suggested change becomes the edits that make it (a replacement is
/// two), each in place of any edit of the same kind on the same pair.
function applySuggested(c) {
  for (const edit of c.edits) {
    const [kind, v] = Object.entries(edit)[0];
    dropChange(kind, v.from, v.to);
    addChange(edit);
  }
  edited_();
}

$("suggest").addEventListener("click", async () => {
  try {
    await api("POST", "/api/suggest?seconds=120");
    page.suggesting = true;
    $("suggest-status").textContent = "searching…";
    showError("");
  } catch (e) {
    showError(e.message);
  }
});

let pending = null;
/// The edits changed: send the scenario (after a pause, so that typing
/// sends one request), or drop the variant when nothing is left.
function edited_() {
  drawChanges();
  drawTickets();
  clearTimeout(pending);
  pending = setTimeout(sendScenario, 300);
}

async function sendScenario() {
  const text = JSON.stringify(scenarioFile());
  if (text === page.posted) return;
  page.posted = text;
  try {
    if (!page.scenario.changes.length && page.scenario.cars === undefined) {
      await api("DELETE", "/api/variant");
    } else {
      await api("POST", `/api/variant?cars=${page.cars}`, text);
    }
    showError("");
    page.showVariant = $("show-variant").checked = Boolean(page.scenario.changes.length);
  } catch (e) {
    showError(e.message);
  }
  poll();
}

function scenarioFile() {
  const file = { name: page.scenario.name || "web edits" };
  if (page.scenario.description) file.description = page.scenario.description;
  if (page.scenario.cars !== undefined) file.cars = page.scenario.cars;
  file.changes = page.scenario.changes;
  return file;
}

function openRouteEditor(route, board) {
  page.selectedRoute = { from: board.cities[route.a].name, to: board.cities[route.b].name, route };
  $("route-editor").hidden = false;
  $("route-name").textContent = route.label;
  $("route-length").value = route.length;
  $("route-points").value = route.points;
}

function fillCitySelects(board) {
  const names = board.cities.map((c) => c.name).sort();
  for (const id of ["add-from", "add-to"]) {
    const select = $(id);
    select.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
  }
  if (names.length > 1) $("add-to").value = names[1];
}

function setCars(cars) {
  page.cars = cars;
  render();
}

// ---- Wiring -------------------------------------------------------------------

$("budget").addEventListener("input", (e) => setCars(Number(e.target.value)));
for (const radio of document.querySelectorAll("input[name=mode]")) {
  radio.addEventListener("change", () => { page.mode = radio.value; drawMap(); });
}
$("show-variant").addEventListener("change", (e) => { page.showVariant = e.target.checked; drawMap(); });
for (const th of document.querySelectorAll("#tickets th[data-key]")) {
  th.addEventListener("click", () => {
    const key = th.dataset.key;
    page.sort = { key, down: page.sort.key === key ? !page.sort.down : key !== "label" };
    drawTickets();
  });
}
$("tickets").addEventListener("focusout", () => setTimeout(drawTickets, 0));
$("route-close").addEventListener("click", () => { $("route-editor").hidden = true; });
$("route-block").addEventListener("click", () => {
  const r = page.selectedRoute;
  dropChange("set_route", r.from, r.to);
  dropChange("remove_route", r.from, r.to);
  addChange({ remove_route: { from: r.from, to: r.to } });
  $("route-editor").hidden = true;
  edited_();
});
$("route-apply").addEventListener("click", () => {
  const r = page.selectedRoute;
  const length = Number($("route-length").value), points = Number($("route-points").value);
  const change = { from: r.from, to: r.to };
  if (length !== r.route.length) change.length = length;
  if (points !== r.route.points) change.points = points;
  dropChange("set_route", r.from, r.to);
  if (change.length !== undefined || change.points !== undefined) addChange({ set_route: change });
  $("route-editor").hidden = true;
  edited_();
});
$("add-ticket").addEventListener("submit", (e) => {
  e.preventDefault();
  addChange({ add_ticket: { from: $("add-from").value, to: $("add-to").value, points: Number($("add-points").value) } });
  edited_();
});
$("reset").addEventListener("click", () => {
  page.scenario = { name: "web edits", description: "", changes: [] };
  edited_();
});
$("download").addEventListener("click", () => {
  const blob = new Blob([JSON.stringify(scenarioFile(), null, 2) + "\n"], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "scenario.json" });
  document.body.append(link);
  link.click();
  link.remove();
});
$("scenario-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  try {
    const value = JSON.parse(await file.text());
    page.scenario = {
      name: value.name || file.name, description: value.description || "",
      cars: value.cars, changes: Array.isArray(value.changes) ? value.changes : [],
    };
    page.posted = "";
    edited_();
  } catch (err) {
    showError(`${file.name}: not JSON (${err.message})`);
  }
});
$("board-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  try {
    await api("POST", "/api/board?name=" + encodeURIComponent(file.name), await file.text());
    page.scenario = { name: "web edits", description: "", changes: [] };
    page.posted = "";
    showError("");
    drawChanges();
  } catch (err) {
    showError(err.message);
  }
  poll();
});

poll();
setInterval(poll, 700);
