#include "play_page.h"

namespace xq::play {

const std::string& pageHtml() {
    static const std::string html = R"html(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Play Xiangqi against xq-engine</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Ccircle cx='16' cy='16' r='14' fill='%23fff6e8' stroke='%23b00' stroke-width='3'/%3E%3Ccircle cx='16' cy='16' r='8' fill='none' stroke='%23b00' stroke-width='2'/%3E%3C/svg%3E">
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:12px;background:#f4efe4;color:#222}
h1{font-size:1.3em;margin:0 0 8px}
main{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
#board{width:100%;max-width:540px;touch-action:none;user-select:none}
#side{flex:1;min-width:260px;max-width:460px}
fieldset{border:1px solid #bba;margin:0 0 10px;padding:8px}
label{display:inline-block;margin:2px 8px 2px 0}
button{margin:2px 4px 2px 0;padding:6px 10px;font-size:1em}
#status{font-weight:bold;margin:6px 0}
#verdict{font-size:1.15em;color:#8b0000;font-weight:bold;min-height:1.2em}
#message{color:#a33;min-height:1.2em}
#moves{font-family:monospace;max-height:220px;overflow:auto;background:#fff;border:1px solid #ccc;padding:6px}
#fen{font-family:monospace;font-size:.85em;word-break:break-all}
#captured{margin:4px 0;min-height:1.2em}
#captured .glyph{font-family:"Noto Serif CJK SC","Noto Sans CJK SC","WenQuanYi Zen Hei",serif;font-size:1.2em}
#captured .red{color:#b00}#captured .black{color:#222}
.piece circle{stroke-width:2}
.red circle{fill:#fff6e8;stroke:#b00}.red text{fill:#b00}
.black circle{fill:#fff6e8;stroke:#222}.black text{fill:#222}
.piece text{font-size:30px;text-anchor:middle;dominant-baseline:central;font-family:"Noto Serif CJK SC","Noto Sans CJK SC","WenQuanYi Zen Hei",serif}
.selected circle{stroke:#06c;stroke-width:4}
.target{fill:#2a7;opacity:.75}
.last{fill:none;stroke:#06c;stroke-width:3;stroke-dasharray:6 4}
</style></head><body>
<h1>Xiangqi against xq-engine</h1>
<main>
<svg id="board" viewBox="0 0 560 620" role="img" aria-label="Xiangqi board"></svg>
<div id="side">
<div id="status">Choose your settings and start a game.</div>
<div id="verdict"></div><div id="message"></div>
<div id="captured"></div>
<fieldset><legend>New game</legend>
<label>Level <select id="level"><option value="1">1 beginner</option><option value="2">2</option>
<option value="3">3</option><option value="4">4</option><option value="5">5</option>
<option value="6">6 senior</option></select></label>
<label>You play <select id="color"><option value="red">red</option><option value="black">black</option></select></label>
<label>First move <select id="first"><option value="">as the position says</option><option value="red">red</option><option value="black">black</option></select></label>
<label>Rules <select id="rules"><option value="asian">Asian (AXF)</option><option value="chinese">Chinese</option></select></label><br>
<label>Position (FEN, empty: the start) <input id="startfen" size="30"></label><br>
<button id="new">New game</button>
</fieldset>
<button id="undo">Undo</button><button id="flip">Flip board</button><button id="hint">Hint</button><button id="eval">Evaluate</button><button id="resign">Resign</button>
<div id="advice"></div>
<h2 style="font-size:1em">Moves <select id="notation"><option value="chinese">炮二平五</option><option value="iccs">h2e2 (ICCS)</option></select></h2><div id="moves"></div>
<p><a id="pgn" hidden download>Download PGN</a> <button id="copyfen">Copy FEN</button></p>
<div id="fen"></div>
</div></main>
<script src="/play.js"></script></body></html>
)html";
    return html;
}

const std::string& pageScript() {
    static const std::string js = R"js("use strict";
const C = 60, M = 40, NS = "http://www.w3.org/2000/svg";
// Simplified characters, as the move list's Chinese notation writes the pieces.
const NAMES = {K:"帅",A:"仕",B:"相",N:"马",R:"车",C:"炮",P:"兵",k:"将",a:"士",b:"象",n:"马",r:"车",c:"炮",p:"卒"};
let game = null, flipped = false, selected = null, busy = false;
const $ = id => document.getElementById(id);
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function xy(file, rank) {
  const f = flipped ? 8 - file : file, r = flipped ? rank : 9 - rank;
  return [M + f * C, M + r * C];
}
function squareName(file, rank) { return "abcdefghi"[file] + rank; }
function boardOf(fen) {
  const rows = fen.split(" ")[0].split("/"), b = {};
  rows.forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "9") f += +ch; else { b[squareName(f, 9 - i)] = ch; f++; }
    }
  });
  return b;
}
function drawGrid(svg) {
  el("rect", {x: 0, y: 0, width: 560, height: 620, fill: "#e8c98f", rx: 8}, svg);
  const g = el("g", {stroke: "#5a3b12", "stroke-width": 2}, svg);
  for (let r = 0; r <= 9; r++) { const [x0, y] = xy(0, r), [x1] = xy(8, r); el("line", {x1: Math.min(x0, x1), y1: y, x2: Math.max(x0, x1), y2: y}, g); }
  for (let f = 0; f <= 8; f++) {
    const edge = f === 0 || f === 8;
    const spans = edge ? [[0, 9]] : [[0, 4], [5, 9]];
    for (const [a, b] of spans) { const [x, y0] = xy(f, a), [, y1] = xy(f, b); el("line", {x1: x, y1: y0, x2: x, y2: y1}, g); }
  }
  for (const [a, b] of [[[3, 0], [5, 2]], [[5, 0], [3, 2]], [[3, 7], [5, 9]], [[5, 7], [3, 9]]]) {
    const [x0, y0] = xy(a[0], a[1]), [x1, y1] = xy(b[0], b[1]);
    el("line", {x1: x0, y1: y0, x2: x1, y2: y1}, g);
  }
  const river = el("text", {x: 280, y: 312, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 28, fill: "#5a3b12"}, svg);
  river.textContent = "楚 河          汉 界";
}
function draw() {
  const svg = $("board");
  svg.textContent = "";
  drawGrid(svg);
  if (!game) return;
  const board = boardOf(game.fen);
  if (game.last_move) for (const sq of [game.last_move.slice(0, 2), game.last_move.slice(2)]) {
    const [x, y] = xy("abcdefghi".indexOf(sq[0]), +sq[1]);
    el("rect", {class: "last", x: x - 28, y: y - 28, width: 56, height: 56}, svg);
  }
  for (const sq in board) {
    const pc = board[sq], [x, y] = xy("abcdefghi".indexOf(sq[0]), +sq[1]);
    const g = el("g", {class: "piece " + (pc === pc.toUpperCase() ? "red" : "black") + (sq === selected ? " selected" : ""), "data-square": sq}, svg);
    el("circle", {cx: x, cy: y, r: 26}, g);
    const t = el("text", {x: x, y: y + 1}, g);
    t.textContent = NAMES[pc];
  }
  if (selected) for (const m of game.legal) if (m.startsWith(selected)) {
    const [x, y] = xy("abcdefghi".indexOf(m[2]), +m[3]);
    el("circle", {class: "target", cx: x, cy: y, r: 9, "data-square": m.slice(2)}, svg);
  }
}
function squareAt(evt) {
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let f = Math.round((p.x - M) / C), r = Math.round((p.y - M) / C);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (flipped) f = 8 - f; else r = 9 - r;
  return squareName(f, r);
}
// The pieces each side has taken: those of the start position no longer on the board.
function showCaptured() {
  const box = $("captured");
  box.textContent = "";
  if (!game) return;
  const count = fen => { const n = {}; for (const ch of fen.split(" ")[0]) if (NAMES[ch]) n[ch] = (n[ch] || 0) + 1; return n; };
  const before = count(game.start_fen), now = count(game.fen);
  const lost = red => Object.keys(before).filter(ch => (ch === ch.toUpperCase()) === red).flatMap(ch => Array(before[ch] - (now[ch] || 0)).fill(ch));
  for (const taker of [game.human, game.human === "red" ? "black" : "red"]) {
    const taken = lost(taker === "black");
    if (!taken.length) continue;
    const line = document.createElement("div");
    line.className = "taken-by-" + taker;
    line.append((taker === game.human ? "You (" + taker + ") captured: " : "The engine (" + taker + ") captured: "));
    for (const ch of taken) {
      const g = document.createElement("span");
      g.className = "glyph " + (ch === ch.toUpperCase() ? "red" : "black");
      g.textContent = NAMES[ch];
      line.append(g, " ");
    }
    box.appendChild(line);
  }
}
function show(state) {
  game = state;
  selected = null;
  $("message").textContent = ""; $("advice").textContent = "";
  $("verdict").textContent = state.verdict || "";
  $("status").textContent = state.over ? "Game over." : state.your_turn ? "Your move (" + state.human + ")" + (state.in_check ? ": you are in check" : "") + "." : "The engine is thinking...";
  showMoves();
  showCaptured();
  $("fen").textContent = state.fen;
  $("pgn").href = "/api/games/" + state.id + "/pgn";
  $("pgn").hidden = false;
  draw();
}
function showMoves() {
  if (!game) return;
  const list = [], chinese = $("notation").value === "chinese";
  const fullFirst = game.start_fen.split(" ")[1] === "b";
  game.moves.forEach((m, i) => {
    const n = Math.floor((i + (fullFirst ? 1 : 0)) / 2) + 1;
    list.push((i % 2 === (fullFirst ? 1 : 0) ? n + ". " : (i === 0 ? n + "... " : "")) + (chinese ? game.notation[i] : m));
  });
  $("moves").textContent = list.join(" ");
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
  game = null; draw(); showCaptured();
  $("pgn").hidden = true; $("pgn").removeAttribute("href");
  $("message").textContent = ""; $("advice").textContent = "";
  $("status").textContent = "Starting a game...";
  const color = $("color").value;
  flipped = color === "black";
  const settings = {level: +$("level").value, color, rules: $("rules").value, fen: $("startfen").value.trim()};
  if ($("first").value) settings.first = $("first").value;
  const r = await api("POST", "/api/games", settings);
  if (r.status === 201) return show(r.data);
  $("status").textContent = "";
  $("message").textContent = r.data.error || "the game could not start";
  if (r.data.wait) setTimeout(newGame, 5000);
}
async function tryMove(move) {
  if (busy || !game) return;
  busy = true;
  $("message").textContent = ""; $("advice").textContent = "";
  selected = null;
  $("status").textContent = "The engine is thinking...";
  const r = await api("POST", "/api/games/" + game.id + "/move", {move});
  busy = false;
  if (r.status === 200) return show(r.data);
  if (r.data.state) show(r.data.state);
  $("message").textContent = "Refused: " + (r.data.error || "error " + r.status);
}
function onPick(evt) {
  if (!game || !game.your_turn || busy) return;
  const sq = squareAt(evt);
  if (!sq) return;
  const mine = boardOf(game.fen)[sq];
  const ours = mine && ((game.human === "red") === (mine === mine.toUpperCase()));
  if (selected && sq !== selected && !ours) return tryMove(selected + sq);
  selected = ours ? sq : null;
  draw();
}
$("board").addEventListener("pointerdown", onPick);
$("board").addEventListener("pointerup", evt => {
  if (!selected) return;
  const sq = squareAt(evt);
  if (sq && sq !== selected && game.legal.includes(selected + sq)) tryMove(selected + sq);
});
$("new").onclick = newGame;
$("notation").onchange = showMoves;
$("flip").onclick = () => { flipped = !flipped; draw(); };
$("undo").onclick = async () => {
  if (!game) return;
  const r = await api("POST", "/api/games/" + game.id + "/undo");
  if (r.status === 200) show(r.data); else $("message").textContent = r.data.error;
};
$("resign").onclick = async () => {
  if (!game || game.over) return;
  const r = await api("POST", "/api/games/" + game.id + "/resign");
  if (r.status === 200) show(r.data); else $("message").textContent = r.data.error;
};
$("hint").onclick = async () => {
  if (!game) return;
  const r = await api("POST", "/api/games/" + game.id + "/hint");
  // In the notation the move list shows.
  $("advice").textContent = r.status === 200 ? "Hint: " + ($("notation").value === "chinese" ? r.data.notation : r.data.move) : r.data.error;
};
$("eval").onclick = async () => {
  if (!game) return;
  const r = await api("POST", "/api/games/" + game.id + "/eval");
  if (r.status !== 200) { $("advice").textContent = r.data.error; return; }
  const s = r.data.score;
  $("advice").textContent = "Evaluation (red's view): " + (s === null ? "?" : s.mate !== undefined ? "mate in " + s.mate : (s.cp / 100).toFixed(2)) + " at depth " + r.data.depth;
};
$("copyfen").onclick = () => { if (game && navigator.clipboard) navigator.clipboard.writeText(game.fen); };
window.addEventListener("pagehide", () => { if (game) fetch("/api/games/" + game.id, {method: "DELETE", keepalive: true}); });
draw();
)js";
    return js;
}

}  // namespace xq::play
