// The SPSA part of a test page: each parameter's value now with its start, range and perturbation, and a
// chart of each over the iterations (server-drawn SVG, as the LLR and Elo charts are).
#include "charts.h"
#include "html.h"
#include "web_pages.h"

namespace xq::coord::web {

using html::escape;
using html::fixed;

std::string spsaValuesText(const v1::SpsaProgress& p) {
    std::string out =
        std::to_string(p.iterations()) + " / " + std::to_string(p.iterations_target()) + " iterations:";
    for (const auto& v : p.params()) out += " " + escape(v.name()) + " " + fixed(v.value(), 1);
    return out;
}

std::string spsaSection(const v1::TestView& view) {
    const auto& p = view.summary().spsa();
    const auto& sp = view.spec().spsa();
    std::string b =
        "<h2>Parameters</h2><p class=\"muted\">" + std::to_string(p.iterations()) + " of " +
        std::to_string(p.iterations_target()) +
        " iterations (game pairs of &theta;+ against &theta;&minus;); alpha " + fixed(sp.alpha(), 3) +
        ", gamma " + fixed(sp.gamma(), 3) + ", A " + fixed(sp.a(), 0) + " &middot; <code>xq spsa export " +
        std::to_string(view.summary().id()) +
        " --out tuned.params</code></p><table class=\"spsa\"><thead><tr><th>Parameter</th><th>Now</th>"
        "<th>Start</th><th>Range</th><th>c<sub>k</sub></th></tr></thead><tbody>";
    for (const auto& v : p.params())
        b += "<tr><td>" + escape(v.name()) + "</td><td class=\"num spsa-value\">" + fixed(v.value(), 2) +
             "</td><td class=\"num\">" + fixed(v.start(), 2) + "</td><td class=\"num\">" + fixed(v.min(), 0) +
             " .. " + fixed(v.max(), 0) + "</td><td class=\"num\">" + fixed(v.c_k(), 2) + "</td></tr>";
    b += "</tbody></table><div class=\"charts\">";
    for (int i = 0; i < sp.params_size(); ++i) {
        Chart c;
        c.title = sp.params(i).name();
        c.xLabel = "iterations";
        c.emptyText = "no iterations yet";
        for (const auto& point : view.spsa_history())
            if (i < point.values_size())
                c.x.push_back(double(point.iteration())), c.y.push_back(point.values(i));
        c.lines = {{sp.params(i).start(), "start " + fixed(sp.params(i).start(), 1)}};
        b += "<div class=\"spsa-chart\">" + svgChart(c, 640, 200) + "</div>";
    }
    return b + "</div>";
}

}  // namespace xq::coord::web
