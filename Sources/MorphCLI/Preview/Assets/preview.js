// The preview page: shows frames the server pushes (server-sent events) and
// sends input back. Every request goes through one queue, so the host sees
// pointer events and controls in the order they happened.
"use strict";

const $ = (id) => document.getElementById(id);
const stage = $("stage");
// This tab's own session: every request names it, so a tap here leaves
// other tabs alone. A new word per page load; the server drops the session
// when the page goes (and keeps only a few in any case).
const tab = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).replace(/[^A-Za-z0-9-]/g, "").slice(0, 32);
function tabURL(path) {
  return path + (path.includes("?") ? "&" : "?") + "tab=" + tab;
}
window.addEventListener("pagehide", () => navigator.sendBeacon(tabURL("close")));
// What the server speaks: the input kinds, the controls, the keys and the
// export formats (`/vocabulary`). The page names nothing the server does not
// list; `checkName` says so loudly if it ever does.
let vocabulary = { inputs: [], pointer: [], commands: [], keys: [], exports: [], backgrounds: [] };
function checkName(list, name) {
  if (vocabulary.commands.length && !list.includes(name)) throw new Error("the server does not know " + name);
  return name;
}
const scrub = $("scrub");
// Frames are rendered at the screen's pixel density (in quarter steps).
const scale = Math.min(4, Math.max(1, Math.round((window.devicePixelRatio || 1) * 4) / 4));
let current = null;
let canvas = [428, 288];
let scrubbing = false;
let pointerIsDown = false;
let propsVersion = -1;
let queue = Promise.resolve();
// A hover still waiting in the queue: later moves update it instead of
// queueing more (the pointer moves faster than a round trip); any other
// request seals it, so events keep their order.
let pendingHover = null;

// Requests go out one at a time, in order; `body` is read when it goes.
function enqueue(path, body) {
  queue = queue
    .then(() => {
      if (pendingHover === body) pendingHover = null;
      return fetch(tabURL(path), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    })
    .catch(() => {});
  return queue;
}

function post(path, body) {
  pendingHover = null;
  return enqueue(path, body);
}

function hover(point) {
  if (pendingHover) {
    Object.assign(pendingHover, point);
    return;
  }
  pendingHover = { kind: "hover", ...point };
  enqueue("pointer", pendingHover);
}

function control(action, value) {
  checkName(vocabulary.commands.map((c) => c.name), action);
  return post("control", value === undefined ? { action } : { action, value });
}

function pointer(kind, point) {
  return post("pointer", { kind: checkName(vocabulary.pointer, kind), ...point });
}

// `?width=W&height=H` in the page's address offers the component that size in
// points: a body that reads `self.size` is laid out in it (issue 27).
const offered = new URLSearchParams(location.search);
if (offered.has("width") && offered.has("height")) {
  post("size", { width: Number(offered.get("width")), height: Number(offered.get("height")) });
}

// Pointer events in CSS pixels → canvas points, whatever size the image is shown at.
function canvasPoint(event) {
  const box = stage.getBoundingClientRect();
  return {
    x: (event.clientX - box.left) * canvas[0] / box.width,
    y: (event.clientY - box.top) * canvas[1] / box.height,
  };
}

stage.addEventListener("pointerdown", (event) => {
  event.preventDefault();
  if (event.button === 1 || event.altKey) return;
  stage.setPointerCapture(event.pointerId);
  pointerIsDown = true;
  pointer("down", canvasPoint(event));
});
stage.addEventListener("pointermove", (event) => {
  if (pointerIsDown) pointer("move", canvasPoint(event));
  else hover(canvasPoint(event));
});
stage.addEventListener("pointerleave", (event) => {
  if (!pointerIsDown) pointer("leave", canvasPoint(event));
});
for (const type of ["pointerup", "pointercancel"]) {
  stage.addEventListener(type, (event) => {
    if (!pointerIsDown) return;
    pointerIsDown = false;
    pointer("up", canvasPoint(event));
  });
}

scrub.addEventListener("pointerdown", () => { scrubbing = true; });
scrub.addEventListener("input", () => control("progress", Number(scrub.value)));
scrub.addEventListener("change", () => { scrubbing = false; });
$("play").addEventListener("click", () => control(current && current.playing ? "pause" : "play"));
$("step").addEventListener("click", () => control("step"));
$("speed").addEventListener("input", () => control("speed", Number($("speed").value)));
$("reduce-motion").addEventListener("change", () =>
  control("reduceMotion", $("reduce-motion").checked ? 1 : 0));
$("save").addEventListener("click", () => {
  const link = document.createElement("a");
  link.href = tabURL("frame.png?scale=" + scale);
  link.download = (current ? current.name : "frame").replace(/\W+/g, "-") + ".png";
  document.body.appendChild(link);
  link.click();
  link.remove();
});

// The overlay over the whole page: the message, file:line, a code frame
// (the broken line marked, a caret under it), the plugin's own traceback
// frames, and the host's folded away. Dismissed, it stays away until the
// error changes.
let dismissedError = null;
$("error-close").addEventListener("click", () => {
  dismissedError = current && current.error ? current.error.line : null;
  $("error").hidden = true;
});

function showError(error) {
  const hidden = !error || error.line === dismissedError;
  if (!error) dismissedError = null;
  $("error").hidden = hidden;
  document.body.dataset.error = error ? "1" : "";
  if (!error || $("error").dataset.shown === error.line + (error.context || []).join("\n")) return;
  $("error").dataset.shown = error.line + (error.context || []).join("\n");
  $("error-line").textContent = error.line;
  $("error-place").textContent = error.file ? error.file + (error.fileLine ? ":" + error.fileLine : "") : "";
  const frame = $("error-source");
  frame.replaceChildren();
  const lines = error.context || (error.source ? [error.source] : []);
  const first = error.context ? error.contextFirst : error.fileLine || 1;
  const width = String(first + lines.length).length;
  lines.forEach((text, i) => {
    const number = first + i;
    const broken = number === error.fileLine;
    const row = document.createElement("span");
    if (broken) row.className = "broken";
    const gutter = document.createElement("span");
    gutter.className = "gutter";
    gutter.textContent = (broken ? "> " : "  ") + String(number).padStart(width) + " | ";
    row.append(gutter, text);
    frame.append(row, "\n");
    if (broken) {
      const start = text.search(/\S/);
      const caret = document.createElement("span");
      caret.className = "caret";
      caret.textContent = " ".repeat(width + 5 + Math.max(0, start)) + "^".repeat(Math.max(1, text.trim().length));
      frame.append(caret, "\n");
    }
  });
  frame.hidden = !lines.length;
  // The plugin's frames stay; the host's (its own Lua, [C], the sandbox) fold.
  const base = error.file ? error.file.split("/").pop() : null;
  const own = [], host = [];
  for (const line of (error.traceback || "").split("\n")) {
    if (!line.trim() || /^stack traceback:?$/.test(line.trim())) continue;
    (base && line.includes(base) ? own : host).push(line.trim());
  }
  $("error-traceback").textContent = own.join("\n");
  $("error-traceback").hidden = !own.length;
  $("error-host").hidden = !host.length;
  $("error-host").querySelector("summary").textContent = host.length + (host.length === 1 ? " host frame" : " host frames");
  $("error-host").querySelector("pre").textContent = host.join("\n");
}

function show(status) {
  current = status;
  document.body.dataset.tab = tab;
  if (status.canvas) {
    const changed = !current || !current.canvas || status.canvas[0] !== canvas[0] || status.canvas[1] !== canvas[1];
    canvas = status.canvas;
    if (changed) layoutStage();
  }
  $("status").textContent = [status.name, status.label, status.value].filter(Boolean).join(" — ");
  $("play").textContent = status.playing ? "Pause" : "Play";
  $("time").textContent = status.time.toFixed(3) + " s";
  document.title = status.name + " — morphhost preview";
  if (document.activeElement !== $("speed")) $("speed").value = status.speed;
  $("speed-readout").textContent = status.speed.toFixed(1) + "×";
  $("reduce-motion").checked = status.reduceMotion;
  scrub.disabled = status.progress === undefined || status.progress === null;
  if (status.range) {
    scrub.min = status.range[0];
    scrub.max = status.range[1];
    scrub.step = (status.range[1] - status.range[0]) / 1000;
    $("progress-range").textContent = status.range[0] + "…" + status.range[1];
  }
  if (!scrub.disabled) {
    if (!scrubbing) scrub.value = status.progress;
    $("progress").textContent = status.progress.toFixed(3);
  } else {
    $("progress").textContent = "–";
  }
  showError(status.error);
  followHistory(status);
  if (status.propsVersion !== propsVersion) {
    propsVersion = status.propsVersion;
    loadProps();
  }
}

// A slider's range around a number's default: 0…2×default (or −1…1 for 0).
function sliderRange(value) {
  if (value === 0) return [-1, 1];
  return value > 0 ? [0, 2 * value] : [2 * value, 0];
}

function propInput(prop, value) {
  const input = document.createElement("input");
  const readout = document.createElement("output");
  switch (prop.kind) {
    case "number": {
      const [min, max] = sliderRange(Number(prop.value));
      const step = niceStep((max - min) / 200);
      Object.assign(input, { type: "range", min, max, step, value });
      readout.textContent = value;
      input.addEventListener("input", () => { readout.textContent = input.value; });
      break;
    }
    case "color":
      Object.assign(input, { type: "color", value: value.slice(0, 7).toLowerCase() });
      break;
    case "boolean":
      Object.assign(input, { type: "checkbox", checked: value === "true" });
      break;
    case "table":
      Object.assign(input, { type: "text", value: "(a table: set it in the plugin)", disabled: true });
      break;
    default:
      Object.assign(input, { type: "text", value });
  }
  input.id = "prop-" + prop.name;
  const send = () => sendProp(prop, prop.kind === "boolean" ? String(input.checked) : input.value, input);
  input.addEventListener(prop.kind === "string" || prop.kind === "numbers" ? "change" : "input", send);
  return [input, readout];
}

// 1, 2 or 5 times a power of ten: a slider's steps land on round numbers.
function niceStep(raw) {
  if (!(raw > 0)) return "any";
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

// A prop the server refuses is marked on its field, with the server's line.
function sendProp(prop, value, input) {
  return post("props", { name: prop.name, value }).then((response) => {
    if (!response || !input) return;
    input.classList.toggle("wrong", !response.ok);
    if (!response.ok) response.text().then((text) => { input.title = text.trim(); });
    else input.title = "";
  });
}

let declaredProps = [];
async function loadProps() {
  const answer = await (await fetch(tabURL("props"))).json();
  declaredProps = answer.props;
  const form = $("props");
  form.replaceChildren();
  for (const prop of answer.props) {
    const name = document.createElement("label");
    name.className = "name";
    name.textContent = prop.name;
    const [input, readout] = propInput(prop, answer.values[prop.name] ?? prop.value);
    name.htmlFor = input.id;
    const reset = document.createElement("button");
    Object.assign(reset, { type: "button", className: "reset", textContent: "↺", title: "back to " + prop.value });
    reset.disabled = prop.kind === "table";
    reset.addEventListener("click", () => sendProp(prop, prop.value, input).then(() => loadProps()));
    form.append(name, input, readout, reset);
  }
}
$("props-reset").addEventListener("click", async () => {
  for (const prop of declaredProps) if (prop.kind !== "table") await sendProp(prop, prop.value);
  loadProps();
});

// Each event carries the pixels that changed since the one before (a PNG of
// that rectangle): decoded off the main thread, drawn in the order they came.
// `data-frames` counts the pictures drawn, `data-partial` those that were
// less than the whole frame (the browser test reads both).
const context = stage.getContext("2d");
let drawing = Promise.resolve();
let framesDrawn = 0;
let partialFrames = 0;

function draw(event) {
  const decoded = fetch("data:image/png;base64," + event.image)
    .then((response) => response.blob())
    .then((blob) => createImageBitmap(blob, { colorSpaceConversion: "none", premultiplyAlpha: "none" }));
  drawing = drawing
    .then(async () => {
      const bitmap = await decoded;
      const [width, height] = event.size;
      if (stage.width !== width || stage.height !== height) {
        stage.width = width;
        stage.height = height;
        layoutStage();
      }
      const [x, y, w, h] = event.box;
      context.clearRect(x, y, w, h);
      context.drawImage(bitmap, x, y);
      bitmap.close();
      framesDrawn += 1;
      if (w * h < width * height) partialFrames += 1;
      stage.dataset.frames = framesDrawn;
      stage.dataset.partial = partialFrames;
    })
    .catch(() => {});
}

// The stream's pixel density: the screen's, times the zoom when the stage is
// shown larger than 1:1 (at most 4); a new density opens a new stream, once the
// zoom has settled.
let events = null;
let streamScale = null;
let reconnect = null;
function connect() {
  const wanted = Math.min(4, Math.max(1, Math.round(scale * Math.max(1, zoomNow()) * 4) / 4));
  if (wanted === streamScale) return;
  streamScale = wanted;
  stage.dataset.density = wanted;
  if (events) events.close();
  events = new EventSource(tabURL("events?scale=" + wanted));
  events.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.image) draw(event);
    show(event.status);
  };
}
function reconnectSoon() {
  clearTimeout(reconnect);
  reconnect = setTimeout(connect, 300);
}

// The inspector: the session's history (`inspect`), fetched only when the
// status says it grew, as the samples after those the page has; drawn on
// the next animation frame. Each numeric state key is a curve (presented
// value solid, target dashed) over the played timeline, with its readout.
// What the session keeps: 60 s at 60 samples a second, and 2000 markers.
const HISTORY_SAMPLES = 3600;
const MARKERS = 2000;
let inspected = { epoch: -1, recorded: 0, marked: 0, keys: [], series: {}, markers: [], animations: [], now: {}, time: 0, take: 0 };
let historyWanted = null;
let historyLoading = false;
let drawQueued = false;
// The moment the cursor shows: null follows the newest sample.
let cursor = null;
let pinned = null;
let rewinding = null;
const MARKER_COLORS = { down: "#2563eb", up: "#7c3aed", move: "#93c5fd", tap: "#2563eb", hover: "#d1d5db",
  leave: "#d1d5db", progress: "#059669", reload: "#ea580c", props: "#ca8a04" };

function followHistory(status) {
  if (!status.history) return;
  // The cursor stays until this page plays on (play, step, replay clear it):
  // the tab's session is its own, so nothing else resumes it, and a status
  // sent before a scrub paused the session cannot clear it.
  const key = status.history.join(",");
  if (key === historyWanted) return;
  historyWanted = key;
  loadHistory();
}

async function loadHistory() {
  if (historyLoading) return;
  historyLoading = true;
  try {
    let asked;
    do {
      asked = historyWanted;
      const answer = await (await fetch(tabURL(`inspect?after=${inspected.recorded}&marks=${inspected.marked}&epoch=${inspected.epoch}`))).json();
      merge(answer);
    } while (asked !== historyWanted);
  } catch (_) {
    // The next status asks again.
  } finally {
    historyLoading = false;
  }
}

function merge(answer) {
  if (answer.epoch !== inspected.epoch) {
    inspected.series = {};
    inspected.markers = [];
  }
  inspected.markers.push(...answer.markers);
  const extraMarkers = inspected.markers.length - MARKERS;
  if (extraMarkers > 0) inspected.markers.splice(0, extraMarkers);
  for (const key of answer.keys) {
    const line = inspected.series[key] || (inspected.series[key] = { t: [], v: [], g: [], d: [] });
    const more = answer.series[key];
    for (const column of ["t", "v", "g", "d"]) {
      const values = more[column].map(Number);
      line[column].push(...values);
      const extra = line[column].length - HISTORY_SAMPLES;
      if (extra > 0) line[column].splice(0, extra);
    }
  }
  Object.assign(inspected, {
    epoch: answer.epoch, recorded: answer.recorded, marked: answer.marked, keys: answer.keys,
    animations: answer.animations, now: answer.now, time: answer.time, take: answer.take,
  });
  queueDraw();
}

function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    drawInspector();
  });
}

// The played timeline's span, over every key.
function span() {
  let start = Infinity, end = -Infinity;
  for (const key of inspected.keys) {
    const t = inspected.series[key].t;
    if (!t.length) continue;
    start = Math.min(start, t[0]);
    end = Math.max(end, t[t.length - 1]);
  }
  if (!isFinite(start)) return [0, 1];
  return [start, Math.max(end, start + 1 / 60)];
}

// What the timeline shows: the whole span, or a window of it once zoomed
// (`timelineZoom` > 1), ending at the newest moment unless scrolled.
let timelineZoom = 1;
let timelineEnd = null;
function view() {
  const [start, end] = span();
  if (timelineZoom <= 1) return [start, end];
  const width = (end - start) / timelineZoom;
  const last = Math.min(end, Math.max(start + width, timelineEnd ?? end));
  return [last - width, last];
}

function zoomTimeline(factor, around) {
  const [start, end] = view();
  const centre = around ?? (cursor ?? (start + end) / 2);
  const [whole0, whole1] = span();
  timelineZoom = Math.min(Math.max(1, timelineZoom * factor), Math.max(1, (whole1 - whole0) * 60 / 8));
  const width = (whole1 - whole0) / timelineZoom;
  timelineEnd = timelineZoom <= 1 ? null : Math.min(whole1, centre + width / 2);
  $("timeline-all").setAttribute("aria-pressed", String(timelineZoom <= 1));
  queueDraw();
}

// The index of the last sample at or before `time`.
function sampleAt(line, time) {
  let low = 0, high = line.t.length - 1;
  if (high < 0 || line.t[0] > time + 1e-9) return -1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (line.t[middle] <= time + 1e-9) low = middle; else high = middle - 1;
  }
  return low;
}

// A canvas sized to its box at the screen's density; returns its context and CSS size.
function fit(canvas) {
  const width = canvas.clientWidth || 280;
  const height = Number(canvas.getAttribute("height")) || 40;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.height = height + "px";
  }
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  return [g, width, height];
}

function drawCurve(canvas, line, [start, end]) {
  const [g, width, height] = fit(canvas);
  const x = (t) => ((t - start) / (end - start)) * (width - 2) + 1;
  let low = Infinity, high = -Infinity;
  for (const column of [line.v, line.g]) {
    for (const value of column) if (isFinite(value)) { low = Math.min(low, value); high = Math.max(high, value); }
  }
  if (!isFinite(low)) return;
  if (high - low < 1e-9) { low -= 1; high += 1; }
  const y = (value) => height - 3 - ((value - low) / (high - low)) * (height - 6);
  for (const [column, style, dash] of [[line.g, "#9ca3af", [3, 3]], [line.v, "#2563eb", []]]) {
    g.beginPath();
    g.setLineDash(dash);
    g.strokeStyle = style;
    g.lineWidth = 1.5;
    column.forEach((value, i) => (i ? g.lineTo(x(line.t[i]), y(value)) : g.moveTo(x(line.t[i]), y(value))));
    g.stroke();
  }
  g.setLineDash([]);
  drawCursor(g, x, height);
  canvas.dataset.points = line.t.length;
}

function drawCursor(g, x, height) {
  const time = cursor ?? inspected.time;
  g.fillStyle = "#dc2626";
  g.fillRect(Math.round(x(time)) - 0.5, 0, 1, height);
}

// The timeline under the stage: a tick every frame (1/60 s) when there is
// room for them, every 0.1 s and every second otherwise; the input markers;
// the cursor. Drawn over `view()`.
function drawTimeline() {
  const canvas = $("history");
  const [g, width, height] = fit(canvas);
  const [start, end] = view();
  const x = (t) => ((t - start) / (end - start)) * (width - 2) + 1;
  g.fillStyle = "#1f2430";
  g.fillRect(0, 14, width, height - 14);
  const perPixel = (end - start) / width;
  for (const [step, tall, color] of [[1 / 60, 4, "#394050"], [0.1, 7, "#4b5366"], [1, 12, "#9aa3b2"]]) {
    if (step / perPixel < 3) continue;
    g.fillStyle = color;
    for (let k = Math.ceil(start / step - 1e-9); k * step <= end + 1e-9; k++) {
      g.fillRect(Math.round(x(k * step)), 14, 1, tall);
    }
  }
  g.fillStyle = "#9aa3b2";
  g.font = "10px system-ui, sans-serif";
  const label = (end - start) > 4 ? 1 : (end - start) > 0.8 ? 0.1 : 1 / 60;
  let lastLabel = -Infinity;
  for (let k = Math.ceil(start / label - 1e-9); k * label <= end + 1e-9; k++) {
    const px = x(k * label);
    if (px - lastLabel < 48) continue;
    lastLabel = px;
    g.fillText((k * label).toFixed(label < 0.1 ? 3 : label < 1 ? 1 : 0) + " s", px + 2, 10);
  }
  for (const marker of inspected.markers) {
    if (marker.time < start || marker.time > end) continue;
    g.fillStyle = MARKER_COLORS[marker.kind] || "#6b7280";
    const tall = marker.kind === "move" || marker.kind === "hover" ? 10 : 22;
    g.fillRect(Math.round(x(marker.time)) - 1, height - 4 - tall, 2, tall);
  }
  drawCursor(g, x, height);
  canvas.dataset.markers = inspected.markers.length;
  canvas.dataset.start = start;
  canvas.dataset.end = end;
}

// A curve's parameter as a designer reads it: repeats -1 is "repeats forever".
function parameterText(name, value) {
  const number = Number(value);
  if (name === "repeats" && number < 0) return "repeats forever";
  return `${name} ${Number.isFinite(number) ? number.toFixed(3).replace(/\.?0+$/, "") : value}`;
}

const format = (value) => (Math.abs(value) >= 1000 ? value.toFixed(1) : value.toFixed(3));

// One row per key: name, pin, readouts, curve; made once per key.
function keyRow(key) {
  let row = document.querySelector(`#keys li[data-key="${CSS.escape(key)}"]`);
  if (row) return row;
  row = document.createElement("li");
  row.dataset.key = key;
  row.innerHTML = `<div class="head"><span class="name"></span>
    <span class="readout"><b class="value"></b> → <span class="target"></span> · v <span class="velocity"></span></span>
    <button type="button" class="pin" title="a larger graph">Pin</button></div><canvas class="curve" height="44"></canvas>`;
  row.querySelector(".name").textContent = key;
  row.querySelector(".pin").addEventListener("click", () => { pinned = pinned === key ? null : key; queueDraw(); });
  $("keys").append(row);
  return row;
}

function drawInspector() {
  const range = view();
  drawTimeline();
  const wanted = new Set(inspected.keys);
  for (const row of [...$("keys").children]) if (!wanted.has(row.dataset.key)) row.remove();
  if (!inspected.keys.length) $("keys").innerHTML = '<li class="none">no numeric state</li>';
  for (const key of inspected.keys) {
    const row = keyRow(key);
    const line = inspected.series[key];
    drawCurve(row.querySelector(".curve"), line, range);
    let reading = inspected.now[key];
    let at = inspected.time;
    if (cursor !== null) {
      const i = sampleAt(line, cursor);
      reading = i < 0 ? null : { value: line.v[i], target: line.g[i], velocity: line.d[i] };
      at = i < 0 ? cursor : line.t[i];
    }
    if (!reading) continue;
    const value = row.querySelector(".value");
    value.textContent = format(Number(reading.value));
    value.dataset.value = reading.value;
    value.dataset.time = at;
    row.querySelector(".target").textContent = format(Number(reading.target));
    row.querySelector(".velocity").textContent = format(Number(reading.velocity));
    row.classList.toggle("pinned", key === pinned);
  }
  $("pinned").hidden = !(pinned && inspected.series[pinned]);
  if (!$("pinned").hidden) {
    $("pinned-name").textContent = pinned;
    drawCurve($("pinned-graph"), inspected.series[pinned], range);
  }
  const list = $("animations");
  list.replaceChildren();
  const animations = [...inspected.animations].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.start - b.start));
  for (const animation of animations) {
    const item = document.createElement("li");
    const parameters = Object.keys(animation.parameters).sort()
      .map((name) => parameterText(name, animation.parameters[name])).join(", ");
    const ends = isFinite(Number(animation.end)) ? Number(animation.end).toFixed(2) + " s" : "never";
    item.innerHTML = `<span class="name"></span> <span class="kind"></span> <span class="params"></span>`;
    item.querySelector(".name").textContent = animation.key;
    item.querySelector(".kind").textContent = animation.kind;
    item.querySelector(".params").textContent = `${animation.curve || parameters} · ${Number(animation.start).toFixed(2)} → ${ends}`;
    list.append(item);
  }
  if (!inspected.animations.length) list.innerHTML = '<li class="none">none running</li>';
  $("take").textContent = inspected.take + (inspected.take === 1 ? " input event" : " input events");
  $("inspector").dataset.cursor = cursor === null ? "" : cursor;
}

// Scrubbing: the cursor moves at once; the session plays the take again to
// that moment (the newest request wins), so the picture follows.
function scrubTo(time) {
  const [start, end] = span();
  const clamped = Math.min(end, Math.max(start, time));
  const [shownStart, shownEnd] = view();
  if (timelineZoom > 1 && (clamped < shownStart || clamped > shownEnd)) {
    timelineEnd = clamped + (shownEnd - shownStart) / 2;
  }
  cursor = Math.round(clamped * 60) / 60;
  queueDraw();
  const pending = rewinding !== null;
  rewinding = cursor;
  if (pending) return;
  (async () => {
    while (rewinding !== null) {
      const time = rewinding;
      await control("rewind", time);
      if (rewinding === time) {
        rewinding = null;
        $("inspector").dataset.rewound = time;
      }
    }
  })();
}

function timelineTime(event) {
  const box = $("history").getBoundingClientRect();
  const [start, end] = view();
  return start + ((event.clientX - box.left - 1) / (box.width - 2)) * (end - start);
}

let timelineDrag = false;
$("history").addEventListener("pointerdown", (event) => {
  timelineDrag = true;
  $("history").setPointerCapture(event.pointerId);
  scrubTo(timelineTime(event));
});
$("history").addEventListener("pointermove", (event) => { if (timelineDrag) scrubTo(timelineTime(event)); });
$("history").addEventListener("pointerup", () => { timelineDrag = false; });
$("history").addEventListener("wheel", (event) => {
  event.preventDefault();
  if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
    const [start, end] = view();
    timelineEnd = end + ((event.deltaX || event.deltaY) / 400) * (end - start);
    queueDraw();
  } else {
    zoomTimeline(event.deltaY < 0 ? 1.25 : 0.8, timelineTime(event));
  }
}, { passive: false });
$("timeline-in").addEventListener("click", () => zoomTimeline(2));
$("timeline-out").addEventListener("click", () => zoomTimeline(0.5));
$("timeline-all").addEventListener("click", () => zoomTimeline(0));
$("unpin").addEventListener("click", () => { pinned = null; queueDraw(); });

function replay() {
  cursor = null;
  control("replay");
}
$("replay").addEventListener("click", replay);

function togglePlay() {
  if (current && !current.playing) cursor = null;
  control(current && current.playing ? "pause" : "play");
}
$("play").addEventListener("click", () => { if (current && !current.playing) cursor = null; });
// A step plays on from the session's moment: the cursor follows the newest sample again.
$("step").addEventListener("click", () => { cursor = null; });

// What each action of the keys table does (the table is the server's).
const actions = {
  toggle: togglePlay,
  replay,
  back: () => scrubTo((cursor ?? inspected.time) - 1 / 60),
  step: () => {
    if (cursor === null || cursor >= span()[1] - 1e-9) { cursor = null; control("step"); }
    else scrubTo(cursor + 1 / 60);
  },
  fit: () => setZoom("fit"),
  actual: () => setZoom(1),
  zoomIn: () => setZoom(zoomNow() * 1.25),
  zoomOut: () => setZoom(zoomNow() / 1.25),
  background: () => setBackground(vocabulary.backgrounds[(vocabulary.backgrounds.indexOf(background) + 1) % vocabulary.backgrounds.length]),
  keys: () => $("keys-panel").showModal(),
};

document.addEventListener("keydown", (event) => {
  const field = event.target.closest && event.target.closest("input, textarea, select, button, dialog");
  if (field || event.metaKey || event.ctrlKey || event.altKey) return;
  const key = vocabulary.keys.find((k) => k.key === event.key || (k.key === "+" && event.key === "="));
  if (!key || !actions[key.action]) return;
  actions[key.action]();
  event.preventDefault();
});

// The stage: fitted to its room (the default), or at a zoom; scrolled (or
// dragged with the middle button or Alt) to pan; over a checkerboard, white
// or dark.
let zoom = "fit";
let background = null;
const viewport = $("viewport");

function fitZoom() {
  const room = viewport.getBoundingClientRect();
  const padding = 32;
  return Math.max(0.05, Math.min((room.width - padding) / canvas[0], (room.height - padding) / canvas[1]));
}
function zoomNow() { return zoom === "fit" ? fitZoom() : zoom; }

function setZoom(value) {
  zoom = value === "fit" ? "fit" : Math.min(16, Math.max(0.1, value));
  layoutStage();
}

function layoutStage() {
  const z = zoomNow();
  stage.style.width = canvas[0] * z + "px";
  stage.style.height = canvas[1] * z + "px";
  // Blown up past twice the pixels streamed (16x at most is 4x of 4x): show them as pixels.
  stage.classList.toggle("pixelated", stage.width > 0 && z * scale >= 2 * (stage.width / canvas[0]));
  $("zoom-readout").textContent = zoom === "fit" ? "fit " + Math.round(z * 100) + "%" : Math.round(z * 100) + "%";
  $("zoom-fit").setAttribute("aria-pressed", String(zoom === "fit"));
  $("zoom-actual").setAttribute("aria-pressed", String(zoom === 1));
  stage.dataset.zoom = z;
  if (events) reconnectSoon();
}

// The server draws the frames over white or dark, or leaves them
// transparent over the page's checkerboard.
function setBackground(name) {
  if (name !== background) post("background", { name });
  background = name;
  viewport.className = "viewport bg-" + name;
  for (const button of $("backgrounds").children) button.setAttribute("aria-pressed", String(button.dataset.background === name));
}

$("zoom-fit").addEventListener("click", () => setZoom("fit"));
$("zoom-actual").addEventListener("click", () => setZoom(1));
$("zoom-in").addEventListener("click", () => setZoom(zoomNow() * 1.25));
$("zoom-out").addEventListener("click", () => setZoom(zoomNow() / 1.25));
viewport.addEventListener("wheel", (event) => {
  if (!event.ctrlKey && !event.metaKey) return;
  event.preventDefault();
  setZoom(zoomNow() * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
}, { passive: false });
let pan = null;
viewport.addEventListener("pointerdown", (event) => {
  if (event.target === stage && event.button !== 1 && !event.altKey) return;
  pan = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop };
  viewport.setPointerCapture(event.pointerId);
  viewport.classList.add("panning");
  event.preventDefault();
});
viewport.addEventListener("pointermove", (event) => {
  if (!pan) return;
  viewport.scrollLeft = pan.left - (event.clientX - pan.x);
  viewport.scrollTop = pan.top - (event.clientY - pan.y);
});
for (const type of ["pointerup", "pointercancel"]) {
  viewport.addEventListener(type, () => { pan = null; viewport.classList.remove("panning"); });
}
new ResizeObserver(() => { if (zoom === "fit") layoutStage(); }).observe(viewport);

$("show-keys").addEventListener("click", () => $("keys-panel").showModal());
$("keys-close").addEventListener("click", () => $("keys-panel").close());

// Exports of what the timeline shows, made by the server's exporter: the
// button's format is the server's name for it; progress is polled, and the
// finished file downloads.
async function exportAs(format, button) {
  const status = $("export-status");
  button.disabled = true;
  try {
    const started = await post("export", { format });
    if (!started || !started.ok) {
      status.textContent = started ? (await started.text()).trim() : "the export did not start";
      return;
    }
    const { id } = await started.json();
    const bar = document.createElement("progress");
    status.replaceChildren(format.toUpperCase() + " ", bar);
    for (;;) {
      const answer = await (await fetch(tabURL("export?id=" + id))).json();
      if (answer.total) { bar.max = answer.total; bar.value = answer.done; }
      if (answer.finished) {
        if (answer.error) { status.textContent = answer.error; return; }
        const link = document.createElement("a");
        link.href = tabURL("export/file?id=" + id);
        link.download = answer.name;
        document.body.appendChild(link);
        link.click();
        link.remove();
        status.textContent = "saved " + answer.name;
        status.dataset.done = answer.name;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  } catch (error) {
    status.textContent = "the export failed: " + error.message;
  } finally {
    button.disabled = false;
  }
}

const EXPORT_LABELS = { gif: "GIF", mp4: "MP4", apng: "APNG", lottie: "Lottie", filmstrip: "Filmstrip" };
const BACKGROUND_LABELS = { checkerboard: "▦", white: "□", dark: "■" };

// The vocabulary decides the keys panel, the background and export buttons.
fetch("/vocabulary").then((response) => response.json()).then((answer) => {
  vocabulary = answer;
  const list = $("key-list");
  for (const key of answer.keys) {
    const term = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = key.label;
    term.append(kbd);
    const what = document.createElement("dd");
    what.textContent = key.help;
    list.append(term, what);
  }
  for (const name of answer.backgrounds) {
    const button = document.createElement("button");
    Object.assign(button, { type: "button", textContent: BACKGROUND_LABELS[name] || name, title: name + " background (b)" });
    button.dataset.background = name;
    button.addEventListener("click", () => setBackground(name));
    $("backgrounds").append(button);
  }
  setBackground(answer.backgrounds[0]);
  for (const format of answer.exports) {
    const button = document.createElement("button");
    Object.assign(button, { type: "button", textContent: EXPORT_LABELS[format] || format, title: "export the timeline as " + format });
    button.dataset.testid = "export-" + format;
    button.addEventListener("click", () => exportAs(format, button));
    $("exports").append(button);
  }
  document.body.dataset.ready = "1";
});

window.addEventListener("resize", queueDraw);
layoutStage();
connect();
