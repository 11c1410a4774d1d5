// Capture Go's board settings as people write them: `size=5..19 rules=capture|go target=N komi=K`, the one
// reader behind `xq match --board`, `xq submit --board`, the coordinator's check of a test's
// MatchSpec.board and the worker that plays it. Settings are separated by commas or given as separate
// tokens ("size=5,rules=go,komi=0.5" or "size=5" "rules=go" "komi=0.5"); an empty text is the defaults.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xq::games {

struct CaptureGoSettings {
    int size = 9;                   // 5..19
    std::string rules = "capture";  // "capture" or "go"
    std::optional<int> target;      // capture only; unset: 1
    std::optional<double> komi;     // a multiple of 0.5; unset: 0 (capture) or 7.5 (go)

    bool operator==(const CaptureGoSettings&) const = default;
};

// Reads the settings; throws std::invalid_argument "<flag>: <what is wrong>" for a token that is no
// key=value, an unknown key, a size outside 5..19, a target out of range, a komi that is no multiple of 0.5,
// an unknown rule set or a target under go.
CaptureGoSettings parseCaptureGoSettings(const std::vector<std::string>& tokens,
                                         const std::string& flag = "--board");
CaptureGoSettings parseCaptureGoSettings(std::string_view text, const std::string& flag = "--board");

// The canonical text, every setting written out: "size=5,rules=go,komi=0.5",
// "size=9,rules=capture,target=1,komi=0". parseCaptureGoSettings reads it back to the same settings.
std::string captureGoSettingsText(const CaptureGoSettings& settings);

// The empty board of these settings as a position text (captureGoStartText).
std::string captureGoStartText(const CaptureGoSettings& settings);

// An opening position text played under these settings: the same stones, side to move and captures, with
// the settings' rules and komi. Throws std::invalid_argument when the text is no position or its board is
// of another size ("the opening is a 9x9 board, the test's board is 5x5").
std::string captureGoOpeningText(const CaptureGoSettings& settings, std::string_view positionText);

}  // namespace xq::games
