// The preview page: shows frames the server pushes (server-sent events) and
// sends input back. Every request goes through one queue, so the host sees
// pointer events and controls in the order they happened.
"use strict";

const $ = (id) => document.getElementById(id);
const stage = $("stage");
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
      return fetch(path, {
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
  return post("control", value === undefined ? { action } : { action, value });
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
  stage.setPointerCapture(event.pointerId);
  pointerIsDown = true;
  post("pointer", { kind: "down", ...canvasPoint(event) });
});
stage.addEventListener("pointermove", (event) => {
  if (pointerIsDown) post("pointer", { kind: "move", ...canvasPoint(event) });
  else hover(canvasPoint(event));
});
stage.addEventListener("pointerleave", (event) => {
  if (!pointerIsDown) post("pointer", { kind: "leave", ...canvasPoint(event) });
});
for (const type of ["pointerup", "pointercancel"]) {
  stage.addEventListener(type, (event) => {
    if (!pointerIsDown) return;
    pointerIsDown = false;
    post("pointer", { kind: "up", ...canvasPoint(event) });
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
  link.href = "frame.png?scale=" + scale;
  link.download = (current ? current.name : "frame").replace(/\W+/g, "-") + ".png";
  document.body.appendChild(link);
  link.click();
  link.remove();
});

function showError(error) {
  $("error").hidden = !error;
  if (!error) return;
  $("error-line").textContent = error.line;
  $("error-source").textContent = error.source || "";
  $("error-source").hidden = !error.source;
  $("error-traceback").textContent = error.traceback || "";
  $("error-traceback").hidden = !error.traceback;
}

function show(status) {
  current = status;
  if (status.canvas) {
    canvas = status.canvas;
    stage.style.width = canvas[0] + "px";
  }
  $("status").textContent = [status.name, status.label, status.value].filter(Boolean).join(" — ");
  $("play").textContent = status.playing ? "Pause" : "Play";
  $("time").textContent = "t = " + status.time.toFixed(3) + " s";
  document.title = status.name + " — morphhost preview";
  if (document.activeElement !== $("speed")) $("speed").value = status.speed;
  $("speed-readout").textContent = status.speed.toFixed(1) + "×";
  $("reduce-motion").checked = status.reduceMotion;
  scrub.disabled = status.progress === undefined || status.progress === null;
  if (status.range) {
    scrub.min = status.range[0];
    scrub.max = status.range[1];
    scrub.step = (status.range[1] - status.range[0]) / 1000;
  }
  if (!scrub.disabled) {
    if (!scrubbing) scrub.value = status.progress;
    $("progress").textContent = status.progress.toFixed(3);
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
      Object.assign(input, { type: "range", min, max, step: (max - min) / 200, value });
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
  const send = () => post("props", {
    name: prop.name,
    value: prop.kind === "boolean" ? String(input.checked) : input.value,
  });
  input.addEventListener(prop.kind === "string" || prop.kind === "numbers" ? "change" : "input", send);
  return [input, readout];
}

async function loadProps() {
  const answer = await (await fetch("props")).json();
  const form = $("props");
  form.replaceChildren();
  for (const prop of answer.props) {
    const name = document.createElement("label");
    name.className = "name";
    name.textContent = prop.name;
    const [input, readout] = propInput(prop, answer.values[prop.name] ?? prop.value);
    name.htmlFor = input.id;
    form.append(name, input, readout);
  }
}

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

const events = new EventSource("events?scale=" + scale);
events.onmessage = (message) => {
  const event = JSON.parse(message.data);
  if (event.image) draw(event);
  show(event.status);
};

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
  // Playing again leaves a scrubbed moment.
  if (status.playing && rewinding === null && cursor !== null) {
    cursor = null;
    queueDraw();
  }
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
      const answer = await (await fetch(`inspect?after=${inspected.recorded}&marks=${inspected.marked}&epoch=${inspected.epoch}`)).json();
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

function drawTimeline(range) {
  const canvas = $("history");
  const [g, width, height] = fit(canvas);
  const [start, end] = range;
  const x = (t) => ((t - start) / (end - start)) * (width - 2) + 1;
  g.fillStyle = "#e5e7eb";
  g.fillRect(0, height / 2 - 2, width, 4);
  for (const marker of inspected.markers) {
    if (marker.time < start) continue;
    g.fillStyle = MARKER_COLORS[marker.kind] || "#6b7280";
    const tall = marker.kind === "move" || marker.kind === "hover" ? 8 : 16;
    g.fillRect(Math.round(x(marker.time)) - 1, height / 2 - tall / 2, 2, tall);
  }
  drawCursor(g, x, height);
  g.fillStyle = "#6b7280";
  g.font = "10px system-ui, sans-serif";
  g.fillText(start.toFixed(2) + " s", 2, height - 1);
  const label = end.toFixed(2) + " s";
  g.fillText(label, width - g.measureText(label).width - 2, height - 1);
  canvas.dataset.markers = inspected.markers.length;
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
  const range = span();
  drawTimeline(range);
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
  for (const animation of inspected.animations) {
    const item = document.createElement("li");
    const parameters = Object.entries(animation.parameters)
      .map(([name, value]) => `${name} ${Number(value).toFixed(3).replace(/\.?0+$/, "")}`).join(", ");
    const ends = isFinite(Number(animation.end)) ? Number(animation.end).toFixed(2) + " s" : "never";
    item.innerHTML = `<span class="name"></span> <span class="kind"></span> <span class="params"></span>`;
    item.querySelector(".name").textContent = animation.key;
    item.querySelector(".kind").textContent = animation.kind;
    item.querySelector(".params").textContent = `${parameters} · ${Number(animation.start).toFixed(2)} → ${ends}`;
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
  const [start, end] = span();
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

document.addEventListener("keydown", (event) => {
  const field = event.target.closest && event.target.closest("input, textarea, select, button");
  if (field || event.metaKey || event.ctrlKey || event.altKey) return;
  if (event.key === " ") togglePlay();
  else if (event.key === "r") replay();
  else if (event.key === "ArrowLeft") scrubTo((cursor ?? inspected.time) - 1 / 60);
  else if (event.key === "ArrowRight") {
    if (cursor === null || cursor >= span()[1] - 1e-9) { cursor = null; control("step"); }
    else scrubTo(cursor + 1 / 60);
  } else return;
  event.preventDefault();
});
window.addEventListener("resize", queueDraw);
