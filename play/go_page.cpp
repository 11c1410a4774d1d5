#include "go_page.h"

namespace xq::play {

const std::string& goPageHtml() {
    static const std::string html = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Play Capture Go against xq-go</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Ccircle cx='16' cy='16' r='13' fill='%23222'/%3E%3Ccircle cx='11' cy='11' r='4' fill='%23666'/%3E%3C/svg%3E">
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:12px;background:#f1ede3;color:#222}
h1{font-size:1.3em;margin:0 0 8px}
main{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
#board{width:100%;max-width:min(600px,calc(100vh - 70px));min-width:260px;touch-action:manipulation;user-select:none;cursor:pointer}
#side{flex:1;min-width:260px;max-width:460px}
fieldset{border:1px solid #bba;margin:0 0 10px;padding:8px}
label{display:inline-block;margin:2px 8px 2px 0}
input[type=number]{width:4em}
button{margin:2px 4px 2px 0;padding:6px 10px;font-size:1em}
#status{font-weight:bold;margin:6px 0}
#verdict{font-size:1.15em;color:#8b0000;font-weight:bold;min-height:1.2em}
#message{color:#a33;min-height:1.2em}
#note{color:#036;min-height:1.2em}
#captures{margin:6px 0;font-size:1.05em}
#captures b{display:inline-block;min-width:1.5em;text-align:center}
#captures span.side{white-space:nowrap;margin-right:10px}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:-.1em;border:1px solid #000}
.swatch.black{background:#111}.swatch.white{background:#fafafa}
#rules{font-size:.9em;color:#444}
#moves{font-family:monospace;max-height:200px;overflow:auto;background:#fff;border:1px solid #ccc;padding:6px}
.stone.black{fill:#111;stroke:#000}
.stone.white{fill:#fafafa;stroke:#333}
.last{fill:none;stroke-width:3}
.last.on-black{stroke:#f5f5f5}.last.on-white{stroke:#c00}
.captured{stroke:#c00;stroke-width:3;opacity:.8}
.coord{font-size:14px;fill:#5a3b12;text-anchor:middle;dominant-baseline:central}
</style></head><body>
<h1>Capture Go against xq-go</h1>
<main>
<svg id="board" viewBox="0 0 420 420" role="img" aria-label="Go board"></svg>
<div id="side">
<div id="status">Choose your settings and start a game.</div>
<div id="verdict"></div><div id="message"></div><div id="note"></div>
<div id="captures"><span class="side"><span class="swatch black"></span> Black captured <b id="cap-black">0</b> of white's stones</span>
<span class="side"><span class="swatch white"></span> White captured <b id="cap-white">0</b> of black's stones</span> <span class="side" id="target-text"></span></div>
<p id="actions"><button id="pass">Pass</button><button id="undo">Undo</button><button id="resign">Resign</button></p>
<fieldset><legend>New game</legend>
<label>Board <select id="size"></select></label>
<label>Capture target <input id="target" type="number" min="1" max="361" value="1"></label>
<label>You play <select id="color"><option value="black">black (moves first)</option><option value="white">white</option></select></label>
<label>Level <select id="level"><option value="1">1 beginner</option><option value="2">2</option>
<option value="3">3</option><option value="4">4</option><option value="5">5</option>
<option value="6">6 strongest</option></select></label>
<label>Start <select id="start"><option value="empty">empty board</option><option value="crosscut">crosscut</option></select></label><br>
<button id="new">New game</button>
</fieldset>
<p id="rules">Capture Go: place stones on the intersections; a group without liberties is captured.</p>
<h2 style="font-size:1em">Moves</h2><div id="moves"></div>
<p><a id="sgf" hidden download>Download SGF</a></p>
</div></main>
<script src="/play.js"></script></body></html>
)html";
    return html;
}

const std::string& goPageScript() {
    static const std::string js = R"js("use strict";
const C = 40, M = 50, NS = "http://www.w3.org/2000/svg", COLS = "ABCDEFGHJKLMNOPQRST";
let game = null, busy = false, size = 9;
const $ = id => document.getElementById(id);
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function extent() { return 2 * M + (size - 1) * C; }
function xy(col, row) { return [M + col * C, M + (size - 1 - row) * C]; }
function pointName(col, row) { return COLS[col] + (row + 1); }
function parsePoint(name) { return [COLS.indexOf(name[0]), +name.slice(1) - 1]; }
function stars() {
  if (size < 7) return [];
  const e = size >= 13 ? 3 : 2, m = (size - 1) / 2, far = size - 1 - e, out = [[e, e], [e, far], [far, e], [far, far]];
  if (size % 2 === 1) out.push([m, m]);
  if (size >= 15 && size % 2 === 1) out.push([e, m], [far, m], [m, e], [m, far]);
  return out;
}
function draw() {
  const svg = $("board"), W = extent();
  svg.setAttribute("viewBox", "0 0 " + W + " " + W);
  svg.dataset.size = size; svg.dataset.margin = M; svg.dataset.spacing = C;
  svg.textContent = "";
  el("rect", {x: 0, y: 0, width: W, height: W, fill: "#dcb35c", rx: 6}, svg);
  const g = el("g", {stroke: "#3b2a10", "stroke-width": 1.5}, svg);
  for (let i = 0; i < size; i++) {
    const [x0, y0] = xy(0, i), [x1] = xy(size - 1, i);
    el("line", {x1: x0, y1: y0, x2: x1, y2: y0}, g);
    const [cx, cy0] = xy(i, size - 1), [, cy1] = xy(i, 0);
    el("line", {x1: cx, y1: cy0, x2: cx, y2: cy1}, g);
    const label = el("text", {class: "coord", x: cx, y: W - M / 2 + 6}, svg);
    label.textContent = COLS[i];
    const num = el("text", {class: "coord", x: M / 2 - 6, y: y0}, svg);
    num.textContent = i + 1;
  }
  for (const [c, r] of stars()) { const [x, y] = xy(c, r); el("circle", {cx: x, cy: y, r: 3.5, fill: "#3b2a10"}, svg); }
  if (!game) return;
  game.board.forEach((line, i) => {
    const row = size - 1 - i;
    for (let col = 0; col < size; col++) {
      const ch = line[col];
      if (ch === ".") continue;
      const [x, y] = xy(col, row), colour = ch === "X" ? "black" : "white";
      el("circle", {class: "stone " + colour, cx: x, cy: y, r: C * 0.46, "stroke-width": 1, "data-point": pointName(col, row)}, svg);
    }
  });
  if (game.last_move && game.last_move !== "pass") {
    const [c, r] = parsePoint(game.last_move), [x, y] = xy(c, r);
    const onBlack = game.board[size - 1 - r][c] === "X";
    el("circle", {class: "last " + (onBlack ? "on-black" : "on-white"), cx: x, cy: y, r: C * 0.22, "data-point": game.last_move}, svg);
  }
  for (const p of game.last_captured) {
    const [c, r] = parsePoint(p), [x, y] = xy(c, r), d = C * 0.18;
    const cross = el("g", {class: "captured", "data-point": p}, svg);
    el("line", {x1: x - d, y1: y - d, x2: x + d, y2: y + d}, cross);
    el("line", {x1: x - d, y1: y + d, x2: x + d, y2: y - d}, cross);
  }
}
function pointAt(evt) {
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.round((p.x - M) / C), row = size - 1 - Math.round((p.y - M) / C);
  if (col < 0 || col >= size || row < 0 || row >= size) return null;
  return pointName(col, row);
}
function colourName(c) { return c[0].toUpperCase() + c.slice(1); }
function show(state) {
  game = state;
  size = state.size;
  $("verdict").textContent = state.verdict || "";
  $("status").textContent = state.over ? "Game over." : state.your_turn ? "Your move (" + state.human + ")." : "The engine is thinking...";
  $("cap-black").textContent = state.captures.black;
  $("cap-white").textContent = state.captures.white;
  $("target-text").textContent = "target " + state.target;
  $("rules").textContent = state.rules;
  const list = [];
  state.moves.forEach((m, i) => list.push((i + 1) + "." + (i % 2 === 0 ? "B" : "W") + " " + m));
  $("moves").textContent = list.join("  ");
  $("moves").scrollTop = $("moves").scrollHeight;
  $("sgf").href = "/api/games/" + state.id + "/sgf";
  $("sgf").hidden = false;
  if (state.engine_failure) $("message").textContent = "The engine failed: " + state.engine_failure.replace(/^the engine failed: /, "");
  draw();
}
async function api(method, path, body) {
  const res = await fetch(path, {method, headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
  const text = await res.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch (e) { data = {error: text}; }
  return {status: res.status, data};
}
async function newGame() {
  if (game) api("DELETE", "/api/games/" + game.id);
  game = null;
  $("sgf").hidden = true; $("sgf").removeAttribute("href");
  size = +$("size").value;
  draw();
  $("message").textContent = ""; $("note").textContent = ""; $("verdict").textContent = "";
  $("status").textContent = "Starting a game...";
  const settings = {size, target: +$("target").value, color: $("color").value, level: +$("level").value, start: $("start").value};
  const r = await api("POST", "/api/games", settings);
  if (r.status === 201) {
    if (r.data.moves.length) $("note").textContent = "The engine played " + r.data.moves[0] + ".";
    return show(r.data);
  }
  $("status").textContent = "";
  $("message").textContent = r.data.error || "the game could not start";
  if (r.data.wait) setTimeout(newGame, 5000);
}
async function tryMove(move) {
  if (busy || !game || !game.your_turn) return;
  busy = true;
  $("message").textContent = ""; $("note").textContent = "";
  $("status").textContent = "The engine is thinking...";
  const r = await api("POST", "/api/games/" + game.id + "/move", {move});
  busy = false;
  if (r.status === 200) {
    const e = r.data.engine_move;
    if (e === "pass") $("note").textContent = "The engine passed." + (r.data.over ? "" : " Pass too to end the game.");
    else if (e === "resign") $("note").textContent = "The engine resigned.";
    else if (e) $("note").textContent = "The engine played " + e + ".";
    return show(r.data);
  }
  if (r.data.state) show(r.data.state);
  $("message").textContent = "Refused: " + (r.data.error || "error " + r.status);
}
async function simple(path) {
  if (!game || busy) return;
  busy = true;
  $("message").textContent = ""; $("note").textContent = "";
  const r = await api("POST", "/api/games/" + game.id + path);
  busy = false;
  if (r.status === 200) show(r.data); else $("message").textContent = r.data.error;
}
for (let n = 5; n <= 19; n++) {
  const o = document.createElement("option");
  o.value = n; o.textContent = n + "x" + n;
  if (n === 9) o.selected = true;
  $("size").appendChild(o);
}
$("size").onchange = () => { if (!game) { size = +$("size").value; draw(); } };
$("board").addEventListener("click", evt => {
  if (!game || !game.your_turn || busy) return;
  const p = pointAt(evt);
  if (p) tryMove(p);
});
$("new").onclick = newGame;
$("pass").onclick = () => tryMove("pass");
$("undo").onclick = () => simple("/undo");
$("resign").onclick = () => { if (game && !game.over) simple("/resign"); };
window.addEventListener("pagehide", () => { if (game) fetch("/api/games/" + game.id, {method: "DELETE", keepalive: true}); });
draw();
)js";
    return js;
}

}  // namespace xq::play
