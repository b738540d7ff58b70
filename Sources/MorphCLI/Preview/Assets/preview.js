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
