#include "weights.h"

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace xq::eval {

namespace {

const char* const PieceNames[] = {"King", "Advisor", "Bishop", "Knight", "Rook", "Cannon", "Pawn"};

struct NamedBlock {
    int first;
    int size;
    const char* name;
};

const NamedBlock SingleWeights[] = {
    {W_ADVISOR_MISSING, 1, "AdvisorMissing"},
    {W_BISHOP_MISSING, 1, "BishopMissing"},
    {W_CANNON_HOLLOW, 1, "CannonHollow"},
    {W_CANNON_SCREEN, 1, "CannonScreen"},
    {W_ROOK_OPEN_FILE, 1, "RookOpenFile"},
    {W_ROOK_SEMI_OPEN_FILE, 1, "RookSemiOpenFile"},
    {W_KNIGHT_LEG_BLOCKED, 1, "KnightLegBlocked"},
    {W_PAWN_CONNECTED, 1, "PawnConnected"},
    {W_PALACE_SQUARE_ATTACKED, 1, "PalaceSquareAttacked"},
    {W_TEMPO, 1, "Tempo"},
};

std::string computeName(int i) {
    if (i < W_PST) return std::string("Material.") + PieceNames[1 + i - W_MATERIAL];
    if (i < W_MOBILITY_KNIGHT) {
        int piece = (i - W_PST) / PST_SIZE, sq = (i - W_PST) % PST_SIZE;
        return std::string("Pst.") + PieceNames[piece] + "." + char('a' + sq % PST_FILES) +
               char('0' + sq / PST_FILES);
    }
    if (i < W_MOBILITY_ROOK) return "Mobility.Knight." + std::to_string(i - W_MOBILITY_KNIGHT);
    if (i < W_MOBILITY_CANNON) return "Mobility.Rook." + std::to_string(i - W_MOBILITY_ROOK);
    if (i < W_PALACE_ATTACKER) return "Mobility.Cannon." + std::to_string(i - W_MOBILITY_CANNON);
    if (i < W_ADVISOR_MISSING) {
        const char* attackers[] = {"Rook", "Knight", "Cannon", "Pawn"};
        return std::string("PalaceAttacker.") + attackers[i - W_PALACE_ATTACKER];
    }
    for (const NamedBlock& b : SingleWeights)
        if (b.first == i) return b.name;
    return "Unnamed." + std::to_string(i);
}

const std::vector<std::string>& names() {
    static const std::vector<std::string> table = [] {
        std::vector<std::string> v;
        for (int i = 0; i < WEIGHT_NB; ++i) v.push_back(computeName(i));
        return v;
    }();
    return table;
}

const std::unordered_map<std::string_view, int>& nameIndex() {
    static const std::unordered_map<std::string_view, int> map = [] {
        std::unordered_map<std::string_view, int> m;
        for (int i = 0; i < WEIGHT_NB; ++i) m.emplace(names()[i], i);
        return m;
    }();
    return map;
}

bool parseInt(std::string_view text, int& value) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

[[noreturn]] void fail(int line, const std::string& what) {
    throw WeightsError("weights file line " + std::to_string(line) + ": " + what);
}

}  // namespace

std::string weightName(int index) {
    if (index < 0 || index >= WEIGHT_NB) return "Invalid." + std::to_string(index);
    return names()[index];
}

int weightIndex(std::string_view name) {
    auto it = nameIndex().find(name);
    return it == nameIndex().end() ? -1 : it->second;
}

void writeWeights(std::ostream& out, const Weights& weights) {
    out << "# xq-engine evaluation weights: name, middlegame value, endgame value (centipawns)\n";
    out << "xq-weights " << WEIGHTS_FILE_VERSION << "\n";
    for (int i = 0; i < WEIGHT_NB; ++i)
        out << weightName(i) << " " << weights[i].mg << " " << weights[i].eg << "\n";
}

Weights readWeights(std::istream& in) {
    Weights result;
    std::vector<bool> seen(WEIGHT_NB, false);
    bool versionSeen = false;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream fields(line);
        std::vector<std::string> tokens;
        for (std::string t; fields >> t;) tokens.push_back(t);
        if (tokens.empty()) continue;
        if (!versionSeen) {
            int version = 0;
            if (tokens.size() != 2 || tokens[0] != "xq-weights" || !parseInt(tokens[1], version))
                fail(lineNo, "expected the header 'xq-weights " + std::to_string(WEIGHTS_FILE_VERSION) +
                                 "', got '" + line + "'");
            if (version != WEIGHTS_FILE_VERSION)
                fail(lineNo, "unsupported weights file version " + std::to_string(version) +
                                 " (this engine reads " + std::to_string(WEIGHTS_FILE_VERSION) + ")");
            versionSeen = true;
            continue;
        }
        if (tokens.size() != 3) fail(lineNo, "expected 'NAME MG EG', got '" + line + "'");
        int index = weightIndex(tokens[0]);
        if (index < 0) fail(lineNo, "unknown weight '" + tokens[0] + "'");
        if (seen[index]) fail(lineNo, "weight '" + tokens[0] + "' appears twice");
        Weight w;
        if (!parseInt(tokens[1], w.mg))
            fail(lineNo, "bad middlegame value '" + tokens[1] + "' for " + tokens[0]);
        if (!parseInt(tokens[2], w.eg))
            fail(lineNo, "bad endgame value '" + tokens[2] + "' for " + tokens[0]);
        if (std::abs(w.mg) > 30000 || std::abs(w.eg) > 30000)
            fail(lineNo, "value out of range for " + tokens[0]);
        result[index] = w;
        seen[index] = true;
    }
    if (!versionSeen) throw WeightsError("weights file is empty (no 'xq-weights' header)");
    for (int i = 0; i < WEIGHT_NB; ++i)
        if (!seen[i]) throw WeightsError("weights file lacks weight '" + weightName(i) + "'");
    return result;
}

Weights loadWeightsFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw WeightsError("cannot open weights file '" + path + "'");
    try {
        return readWeights(in);
    } catch (const WeightsError& e) {
        throw WeightsError(path + ": " + e.what());
    }
}

void saveWeightsFile(const std::string& path, const Weights& weights) {
    std::ofstream out(path);
    if (!out) throw WeightsError("cannot write weights file '" + path + "'");
    writeWeights(out, weights);
    if (!out.flush()) throw WeightsError("error writing weights file '" + path + "'");
}

void writeWeightsSource(std::ostream& out, const Weights& weights) {
    out << "// The compiled-in evaluation weights. Generated by xq::eval::writeWeightsSource (`xq-engine "
           "weights\n"
           "// source`); engine/weights/default.xqw holds the same values (a test checks it).\n"
           "#include <iterator>\n\n#include \"weights.h\"\n\nnamespace xq::eval {\n\nnamespace {\n\n"
           "constexpr Weight DefaultTable[] = {\n";
    for (int i = 0; i < WEIGHT_NB; ++i)
        out << "    {" << weights[i].mg << ", " << weights[i].eg << "},  // " << weightName(i) << "\n";
    out << "};\nstatic_assert(std::size(DefaultTable) == WEIGHT_NB, \"one default per weight\");\n\n"
           "}  // namespace\n\nconst Weights& defaultWeights() {\n"
           "    static const Weights weights = [] {\n        Weights w;\n"
           "        for (int i = 0; i < WEIGHT_NB; ++i) w[i] = DefaultTable[i];\n        return w;\n    "
           "}();\n"
           "    return weights;\n}\n\n}  // namespace xq::eval\n";
}

}  // namespace xq::eval
