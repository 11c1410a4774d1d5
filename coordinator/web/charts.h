// Line charts drawn by the server as SVG, so the web view needs no JavaScript library: a test's LLR
// against games with the SPRT's bounds, and its Elo with the 95% band.
#pragma once

#include <string>
#include <vector>

namespace xq::coord {

struct ChartLine {  // a horizontal reference line, e.g. an SPRT bound
    double y = 0;
    std::string label;
};

struct Chart {
    std::string title, xLabel;
    std::vector<double> x, y;               // the series
    std::vector<double> bandLow, bandHigh;  // optional, same length as x: a shaded band around y
    std::vector<ChartLine> lines;
    std::string emptyText = "no games yet";  // shown when x is empty
    // x counts things (a ladder's versions): the axis runs from the first x to the last, not from 0, and
    // its ticks are whole numbers.
    bool wholeX = false;
};

// A complete <svg> element (with xmlns, so it also stands alone as an image/svg+xml document).
std::string svgChart(const Chart& chart, int width = 640, int height = 240);

}  // namespace xq::coord
