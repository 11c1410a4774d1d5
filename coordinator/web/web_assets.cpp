#include "web_assets.h"

namespace xq::coord::web {

const char* const StyleCss = R"css(
body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; font-size: 14px; }
nav { display: flex; align-items: center; gap: 14px; padding: 8px 16px; background: #8b1a1a; flex-wrap: wrap; }
nav a, nav .user { color: #fff; text-decoration: none; }
nav .brand { font-weight: bold; font-size: 18px; }
nav .spacer { flex: 1; }
nav form.inline { display: inline; margin: 0; }
main { padding: 12px 16px; }
h1 { font-size: 20px; margin: 8px 0 12px; }
h2 { font-size: 16px; margin: 18px 0 6px; }
table { border-collapse: collapse; background: #fff; margin-bottom: 8px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: #f0f0f0; }
table.kv th { background: #f6f6f6; width: 9em; }
td.num, .num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.muted { color: #777; }
.desc { color: #444; font-weight: normal; }
.error { color: #b00; font-weight: bold; }
.state { padding: 1px 6px; border-radius: 8px; background: #ddd; white-space: nowrap; }
.state.running { background: #d6eaff; }
.state.passed { background: #c8efd4; }
.state.failed { background: #f6d0cc; }
.state.stopped { background: #eee; color: #666; }
.llr { white-space: nowrap; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
svg.chart { max-width: 100%; height: auto; border: 1px solid #ddd; }
form.filter, form.stop { margin: 8px 0; }
form.submit label { display: inline-block; min-width: 28em; margin: 3px 0; }
fieldset { margin-bottom: 10px; background: #fff; }
.scroll { overflow-x: auto; max-width: 100%; }
table.generations { font-size: 13px; }
ul.events { background: #fff; border: 1px solid #ddd; padding: 6px 24px; max-height: 24em; overflow: auto; }
@media (max-width: 700px) {
  table { font-size: 12px; display: block; overflow-x: auto; max-width: 100%; }
  /* The tests list as cards: each test's figures, labelled, wrapping within the screen's width. */
  table.tests, table.tests tbody, table.tests tr { display: block; overflow: visible; }
  table.tests thead { display: none; }
  table.tests tr { border: 1px solid #ddd; background: #fff; margin-bottom: 6px; padding: 4px 0; }
  table.tests td { display: inline-block; border: none; padding: 2px 8px; }
  table.tests td[data-label]::before { content: attr(data-label) " "; color: #777; font-size: 11px; }
  table.tests td.test { display: block; }
  table.tests td.test::before { content: none; }
  form.submit label { min-width: 0; }
  form.submit .muted { overflow-wrap: anywhere; }
  form.submit input, form.submit select { max-width: 100%; }
  /* A select of long artifact names: within the screen, whatever its label makes of percentages. */
  form.submit select { max-width: calc(100vw - 60px); }
  form.submit fieldset { min-width: 0; }
}
)css";

const char* const FaviconSvg =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\"><circle cx=\"16\" cy=\"16\" r=\"14\" "
    "fill=\"#fff6e8\" stroke=\"#8b1a1a\" stroke-width=\"3\"/><circle cx=\"16\" cy=\"16\" r=\"8\" "
    "fill=\"none\" "
    "stroke=\"#8b1a1a\" stroke-width=\"2\"/><path d=\"M10 16h12M16 10v12\" stroke=\"#8b1a1a\" "
    "stroke-width=\"2.5\"/></svg>\n";

const char* const LiveJs = R"js(
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var question = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) e.preventDefault();
  });
  var period = 2500;
  function refresh() {
    if (document.hidden) { setTimeout(refresh, period); return; }
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text) {
          var doc = new DOMParser().parseFromString(text, "text/html");
          document.querySelectorAll("[data-live]").forEach(function (el) {
            var fresh = doc.getElementById(el.id);
            if (fresh && fresh.innerHTML !== el.innerHTML) el.innerHTML = fresh.innerHTML;
          });
          document.body.setAttribute("data-refreshed", String(Date.now()));
        }
      })
      .catch(function () {})
      .then(function () { setTimeout(refresh, period); });
  }
  if (document.querySelector("[data-live]")) setTimeout(refresh, period);
})();
)js";

}  // namespace xq::coord::web
