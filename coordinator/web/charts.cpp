#include "charts.h"

#include <algorithm>
#include <cmath>

#include "html.h"

namespace xq::coord {

namespace {

// About `count` round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, int count) {
    double span = hi - lo;
    if (!(span > 0)) return {lo};
    double raw = span / count;
    double mag = std::pow(10, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    std::vector<double> out;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return out;
}

std::string num(double v) {
    if (std::abs(v) >= 1e4) return html::compact(v);
    if (v == std::round(v)) return html::fixed(v, 0);
    return html::fixed(v, std::abs(v) < 1 ? 2 : 1);
}

// A tick's label with as many decimals as the ticks' step needs (0.0059 and 0.0060 are not both "0.01").
std::string tickLabel(double v, const std::vector<double>& all) {
    if (all.size() < 2 || std::abs(v) >= 1e4) return num(v);
    const double step = std::abs(all[1] - all[0]);
    if (!(step > 0) || step >= 1) return num(v);
    int decimals = int(std::ceil(-std::log10(step) - 1e-9));
    if (std::abs(step * std::pow(10, decimals) - std::round(step * std::pow(10, decimals))) > 1e-6)
        ++decimals;
    return html::fixed(v, std::clamp(decimals, 0, 8));
}

}  // namespace

std::string svgChart(const Chart& c, int width, int height) {
    const double left = 52, right = 12, top = 24, bottom = 34;
    const double plotW = width - left - right, plotH = height - top - bottom;
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " +
                      std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
                      std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" role=\"img\">";
    out += "<title>" + html::escape(c.title) + "</title>";
    out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\"" +
           std::to_string(height) + "\" fill=\"#fff\"/>";
    out += "<text x=\"" + num(left) + "\" y=\"16\" font-size=\"13\" font-family=\"sans-serif\">" +
           html::escape(c.title) + "</text>";
    if (c.x.empty()) {
        out += "<text x=\"" + num(width / 2.0) + "\" y=\"" + num(height / 2.0) +
               "\" text-anchor=\"middle\" font-size=\"13\" fill=\"#888\" font-family=\"sans-serif\">" +
               html::escape(c.emptyText) + "</text></svg>";
        return out;
    }
    double xMin = 0, xMax = std::max(1.0, *std::max_element(c.x.begin(), c.x.end()));
    if (c.wholeX) {
        xMin = *std::min_element(c.x.begin(), c.x.end());
        xMax = *std::max_element(c.x.begin(), c.x.end());
        if (xMax - xMin < 1) xMin -= 0.5, xMax += 0.5;  // one version: in the middle
    }
    double yMin = *std::min_element(c.y.begin(), c.y.end()), yMax = *std::max_element(c.y.begin(), c.y.end());
    const bool band = c.bandLow.size() == c.x.size() && c.bandHigh.size() == c.x.size();
    if (band) {
        yMin = std::min(yMin, *std::min_element(c.bandLow.begin(), c.bandLow.end()));
        yMax = std::max(yMax, *std::max_element(c.bandHigh.begin(), c.bandHigh.end()));
    }
    for (const auto& l : c.lines) yMin = std::min(yMin, l.y), yMax = std::max(yMax, l.y);
    if (!std::isfinite(yMin) || !std::isfinite(yMax)) yMin = -1, yMax = 1;
    if (yMax - yMin < 1e-9) yMin -= 1, yMax += 1;
    double pad = (yMax - yMin) * 0.05;
    yMin -= pad, yMax += pad;
    auto px = [&](double x) { return left + (x - xMin) / (xMax - xMin) * plotW; };
    auto py = [&](double y) { return top + (yMax - std::clamp(y, yMin, yMax)) / (yMax - yMin) * plotH; };
    const std::string font = " font-size=\"11\" font-family=\"sans-serif\" fill=\"#555\"";
    // Grid and axes.
    const std::vector<double> yTicks = ticks(yMin, yMax, 5);
    for (double t : yTicks) {
        out += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + plotW) + "\" y1=\"" +
               html::fixed(py(t), 1) + "\" y2=\"" + html::fixed(py(t), 1) + "\" stroke=\"#eee\"/>";
        out += "<text x=\"" + num(left - 6) + "\" y=\"" + html::fixed(py(t) + 4, 1) +
               "\" text-anchor=\"end\"" + font + ">" + tickLabel(t, yTicks) + "</text>";
    }
    std::vector<double> xTicks = ticks(xMin, xMax, 6);
    if (c.wholeX) {
        const double step = std::max(1.0, std::ceil((xMax - xMin) / 6));
        xTicks.clear();
        for (double t = std::ceil(xMin); t <= xMax + 1e-9; t += step) xTicks.push_back(t);
    }
    for (double t : xTicks)
        out += "<text x=\"" + html::fixed(px(t), 1) + "\" y=\"" + num(top + plotH + 16) +
               "\" text-anchor=\"middle\"" + font + ">" + num(t) + "</text>";
    out += "<text x=\"" + num(left + plotW) + "\" y=\"" + num(height - 4.0) + "\" text-anchor=\"end\"" +
           font + ">" + html::escape(c.xLabel) + "</text>";
    out += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(plotW) + "\" height=\"" +
           num(plotH) + "\" fill=\"none\" stroke=\"#999\"/>";
    if (band) {
        std::string pts;
        for (std::size_t i = 0; i < c.x.size(); ++i)
            pts += html::fixed(px(c.x[i]), 1) + "," + html::fixed(py(c.bandHigh[i]), 1) + " ";
        for (std::size_t i = c.x.size(); i-- > 0;)
            pts += html::fixed(px(c.x[i]), 1) + "," + html::fixed(py(c.bandLow[i]), 1) + " ";
        out += "<polygon class=\"band\" points=\"" + pts + "\" fill=\"#9ecae1\" fill-opacity=\"0.45\"/>";
    }
    for (const auto& l : c.lines) {
        std::string y = html::fixed(py(l.y), 1);
        out += "<line class=\"bound\" x1=\"" + num(left) + "\" x2=\"" + num(left + plotW) + "\" y1=\"" + y +
               "\" y2=\"" + y + "\" stroke=\"#c0392b\" stroke-dasharray=\"5,4\"/>";
        out += "<text x=\"" + num(left + plotW - 4) + "\" y=\"" + html::fixed(py(l.y) - 4, 1) +
               "\" text-anchor=\"end\" font-size=\"11\" font-family=\"sans-serif\" fill=\"#c0392b\">" +
               html::escape(l.label) + "</text>";
    }
    std::string pts;
    for (std::size_t i = 0; i < c.x.size(); ++i)
        pts += html::fixed(px(c.x[i]), 1) + "," + html::fixed(py(c.y[i]), 1) + " ";
    out += "<polyline class=\"series\" points=\"" + pts +
           "\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>";
    // Few points (a run's generations): each one marked, so that a single point shows at all.
    if (c.x.size() <= 60)
        for (std::size_t i = 0; i < c.x.size(); ++i)
            out += "<circle class=\"point\" cx=\"" + html::fixed(px(c.x[i]), 1) + "\" cy=\"" +
                   html::fixed(py(c.y[i]), 1) + "\" r=\"3\" fill=\"#1f5fa8\"/>";
    out += "</svg>";
    return out;
}

}  // namespace xq::coord
