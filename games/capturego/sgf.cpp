#include "capturego/sgf.h"

#include <charconv>
#include <optional>

#include "capturego/concat.h"
#include "capturego/notation.h"

namespace xq::capturego {

using detail::cat;

// ---------------------------------------------------------------------------------------------------------
// Syntax: the main line of each game tree.
// ---------------------------------------------------------------------------------------------------------

namespace {

class Scanner {
  public:
    explicit Scanner(std::string_view text) : text_(text) {}

    bool eof() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    void advance() { ++pos_; }
    std::size_t pos() const { return pos_; }
    void seek(std::size_t pos) { pos_ = pos; }

    void skipSpace() {
        while (!eof() && (peek() == ' ' || peek() == '\t' || peek() == '\r' || peek() == '\n' ||
                          peek() == '\f' || peek() == '\v'))
            ++pos_;
    }

    // Line breaks between two offsets (from <= to), for counting lines as the scan goes.
    int linesBetween(std::size_t from, std::size_t to) const {
        int n = 0;
        for (std::size_t i = from; i < to && i < text_.size(); ++i)
            if (text_[i] == '\n') ++n;
        return n;
    }

    ParseError error(const std::string& what, std::size_t at) const {
        int line = 1, column = 1;
        for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
            if (text_[i] == '\n')
                ++line, column = 1;
            else
                ++column;
        }
        return ParseError(cat("SGF line ", line, ", column ", column, ": ", what));
    }
    ParseError error(const std::string& what) const { return error(what, pos_); }

    // A value after its '[': up to the unescaped ']', escapes removed, soft line breaks dropped.
    std::string value(const std::string& property) {
        std::size_t open = pos_ - 1;
        std::string v;
        for (;;) {
            if (eof())
                throw error(cat("unterminated value of property ", property, " (no closing ']')"), open);
            char c = text_[pos_++];
            if (c == ']') return v;
            if (c != '\\') {
                v += c;
                continue;
            }
            if (eof()) continue;  // reported as unterminated on the next round
            char escaped = text_[pos_++];
            if (escaped == '\n' || escaped == '\r') {  // a soft line break: \ then \n, \r, \r\n or \n\r
                char other = escaped == '\n' ? '\r' : '\n';
                if (!eof() && peek() == other) ++pos_;
                continue;
            }
            v += escaped;
        }
    }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

bool isLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

SgfNode readNode(Scanner& s) {
    SgfNode node;
    for (;;) {
        s.skipSpace();
        if (s.eof() || !isLetter(s.peek())) return node;
        std::size_t start = s.pos();
        std::string id;
        while (!s.eof() && isLetter(s.peek())) {
            if (s.peek() >= 'A' && s.peek() <= 'Z') id += s.peek();
            s.advance();
        }
        if (id.empty()) throw s.error("property name without capital letters", start);
        s.skipSpace();
        if (s.eof() || s.peek() != '[') throw s.error(cat("property ", id, " has no value ('[' expected)"));
        SgfProperty* property = nullptr;
        for (SgfProperty& p : node.properties)
            if (p.id == id) property = &p;
        if (!property) {
            node.properties.push_back(SgfProperty{id, {}});
            property = &node.properties.back();
        }
        while (!s.eof() && s.peek() == '[') {
            s.advance();
            property->values.push_back(s.value(id));
            s.skipSpace();
        }
    }
}

}  // namespace

const SgfProperty* SgfNode::find(std::string_view id) const {
    for (const SgfProperty& p : properties)
        if (p.id == id) return &p;
    return nullptr;
}

namespace {

// One game tree from the '(' at the scanner's position through its ')': the nodes of its main line (the
// first variation at every branch). Leaves the scanner after the ')'.
std::vector<SgfNode> parseGameTree(Scanner& s) {
    struct Tree {
        bool hasNode = false;
        bool hasChild = false;
    };
    std::vector<Tree> open;  // the game trees being read, outermost first (no recursion: any depth is fine)
    std::size_t mainDepth = 0;  // depth of the main-line tree being read
    bool mainDone = false;      // the main line has ended (its last tree closed)
    std::vector<SgfNode> mainLine;
    for (;;) {
        s.skipSpace();
        if (s.eof()) throw s.error("the SGF ends inside a game tree (a ')' is missing)");
        char c = s.peek();
        if (c == '(') {
            if (!open.empty()) {
                if (!open.back().hasNode)
                    throw s.error("a game tree must start with a node (';') before '('");
                open.back().hasChild = true;
            }
            open.push_back(Tree{});
            if (!mainDone && open.size() == mainDepth + 1) mainDepth = open.size();  // first variation
            s.advance();
        } else if (c == ')') {
            if (open.empty() || !open.back().hasNode) throw s.error("an empty game tree");
            if (!mainDone && open.size() == mainDepth) mainDone = true;
            open.pop_back();
            s.advance();
            if (open.empty()) return mainLine;
        } else if (c == ';') {
            if (open.empty()) throw s.error("a node outside any game tree");
            if (open.back().hasChild)
                throw s.error("a node after a variation (nodes come before variations)");
            open.back().hasNode = true;
            s.advance();
            SgfNode node = readNode(s);
            if (!mainDone && open.size() == mainDepth) mainLine.push_back(std::move(node));
        } else {
            throw s.error(cat("unexpected '", c, "' (expected ';', '(', ')' or a property)"));
        }
    }
}

}  // namespace

std::vector<SgfNode> parseSgfMainLine(std::string_view text) {
    std::size_t first = text.find('(');
    if (first == std::string_view::npos) throw ParseError("SGF: no game tree (no '(' in the text)");
    Scanner s(text);
    s.seek(first);
    return parseGameTree(s);  // further game trees of the collection are ignored
}

std::vector<SgfGameTree> parseSgfCollection(std::string_view text) {
    std::size_t first = text.find('(');
    if (first == std::string_view::npos) throw ParseError("SGF: no game tree (no '(' in the text)");
    Scanner s(text);
    s.seek(first);
    std::vector<SgfGameTree> trees;
    std::size_t counted = 0;  // lines are counted up to here
    int line = 1;
    for (;;) {
        s.skipSpace();
        if (s.eof()) return trees;
        if (s.peek() != '(')
            throw s.error(cat("unexpected '", s.peek(), "' after game tree ", trees.size(),
                              " (only game trees, '(' ... ')', may follow one another)"));
        SgfGameTree tree;
        line += s.linesBetween(counted, s.pos());
        counted = s.pos();
        tree.line = line;
        tree.mainLine = parseGameTree(s);
        trees.push_back(std::move(tree));
    }
}

// ---------------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------------

namespace {

std::string escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == ']' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string sgfPoint(Point p, int size) {
    return std::string{static_cast<char>('a' + p.col), static_cast<char>('a' + (size - 1 - p.row))};
}

}  // namespace

std::string writeSgf(const Game& game) {
    const Position& start = game.start();
    const Rules& rules = game.rules();
    int n = start.size();
    std::string sgf =
        cat("(;FF[4]GM[1]CA[UTF-8]AP[xq-capturego:1]SZ[", n, "]KM[", formatPoints(rules.komi), "]");
    if (rules.ruleSet == RuleSet::Capture) {
        sgf += cat("RU[", ruleSetText(rules), "]XT[", rules.target, "]");
        sgf += cat("GC[Capture Go: the first player to capture ", rules.target,
                   rules.target == 1 ? " stone" : " stones", " wins]");
    } else {
        sgf += "RU[Tromp-Taylor]";
    }
    sgf += "\n";
    auto info = [&](const char* id, const std::string& value) {
        if (!value.empty()) sgf += cat(id, "[", escape(value), "]");
    };
    info("PB", game.info.black);
    info("PW", game.info.white);
    info("DT", game.info.date);
    info("EV", game.info.event);
    info("RE", game.result().sgf());
    if (sgf.back() != '\n') sgf += "\n";

    std::string setup;
    for (Cell colour : {Cell::Black, Cell::White}) {
        std::string points;
        for (int row = n - 1; row >= 0; --row)
            for (int col = 0; col < n; ++col)
                if (start.at({col, row}) == colour) points += cat("[", sgfPoint({col, row}, n), "]");
        if (!points.empty()) setup += cat(colour == Cell::Black ? "AB" : "AW", points);
    }
    if (start.toMove() == Color::White) setup += "PL[W]";
    if (start.captures(Color::Black)) setup += cat("XB[", start.captures(Color::Black), "]");
    if (start.captures(Color::White)) setup += cat("XW[", start.captures(Color::White), "]");
    if (start.consecutivePasses()) setup += cat("XP[", start.consecutivePasses(), "]");
    if (!setup.empty()) sgf += cat(setup, "\n");

    Color mover = start.toMove();
    const std::vector<Move>& moves = game.moves();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        sgf += mover == Color::Black ? ";B[" : ";W[";
        if (!moves[i].isPass()) sgf += sgfPoint(moves[i].point(), n);
        sgf += "]";
        if (i % 12 == 11 && i + 1 < moves.size()) sgf += "\n";
        mover = opponent(mover);
    }
    sgf += ")\n";
    return sgf;
}

// ---------------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------------

namespace {

std::string simpleText(std::string_view value) {  // SGF SimpleText: line breaks and tabs become spaces
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        char c = value[i];
        if (c == '\r' && i + 1 < value.size() && value[i + 1] == '\n') continue;
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    }
    return out;
}

std::optional<int> wholeNumber(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    int value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || value < 0) return std::nullopt;
    return value;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string shown(const SgfProperty& p) {
    return cat(p.id, "[", p.values.empty() ? "" : p.values[0], "]");
}

class SgfReader {
  public:
    explicit SgfReader(std::vector<SgfNode> nodes) : nodes_(std::move(nodes)) {}

    Game read() {
        const SgfNode& root = nodes_.front();
        if (const SgfProperty* gm = root.find("GM"); gm && wholeNumber(gm->values[0]) != 1)
            throw ParseError(cat("SGF ", shown(*gm), ": not a game of Go (GM[1])"));
        int size = readSize(root);
        Rules rules = readRules(root);
        Position start(size, rules);

        // Setup nodes, up to the first move.
        std::size_t k = 0;
        std::optional<Color> firstPlayer;
        for (; k < nodes_.size() && !hasMove(nodes_[k]); ++k) applySetup(nodes_[k], k, start, firstPlayer);
        if (k < nodes_.size() && hasSetup(nodes_[k]))
            throw ParseError(cat(where(k), ": setup (AB, AW, AE, PL) and a move in the same node"));
        if (!firstPlayer && k < nodes_.size()) firstPlayer = moveOf(nodes_[k]).first;
        start.setToMove(firstPlayer.value_or(Color::Black));
        applyStartCounts(root, start);
        if (std::string problem = start.validate(); !problem.empty())
            throw ParseError(cat("SGF setup: ", problem));

        Game game(start);
        readInfo(root, game);
        int moveNumber = 0;
        for (; k < nodes_.size(); ++k) {
            const SgfNode& node = nodes_[k];
            if (hasSetup(node))
                throw ParseError(
                    cat(where(k), ": setup (AB, AW, AE, PL) after the first move is not supported"));
            if (!hasMove(node)) continue;
            auto [colour, move] = moveOf(node);
            ++moveNumber;
            // The move's name is computed here: clang 14 (the fuzz build) cannot capture structured bindings.
            const std::string named = cat(colorName(colour), " ", moveName(move));
            const std::string label = cat("SGF move ", moveNumber, " (", named, ")");
            auto moveError = [&](const std::string& why) {
                return SgfMoveError(cat(label, ": ", why), moveNumber, named, why);
            };
            if (colour != game.toMove())
                throw moveError(cat("it is ", colorName(game.toMove()), "'s turn (moves must alternate)"));
            std::string why;
            if (!game.play(move, &why)) throw moveError(why);
        }
        applyRecordedResult(root, game);
        return game;
    }

  private:
    std::string where(std::size_t k) const { return cat("SGF node ", k + 1); }

    static bool hasMove(const SgfNode& node) { return node.find("B") || node.find("W"); }
    static bool hasSetup(const SgfNode& node) {
        return node.find("AB") || node.find("AW") || node.find("AE") || node.find("PL");
    }

    int readSize(const SgfNode& root) {
        const SgfProperty* sz = root.find("SZ");
        if (!sz) return 19;
        std::string value = sz->values[0];
        std::size_t colon = value.find(':');
        std::optional<int> n = wholeNumber(std::string_view(value).substr(0, colon));
        if (colon != std::string::npos) {
            std::optional<int> m = wholeNumber(std::string_view(value).substr(colon + 1));
            if (n && m && *n != *m)
                throw ParseError(cat("SGF ", shown(*sz), ": only square boards are played"));
        }
        if (!n) throw ParseError(cat("SGF ", shown(*sz), ": the board size is not a number"));
        if (*n < kMinBoardSize || *n > kMaxBoardSize)
            throw ParseError(cat("SGF ", shown(*sz), ": boards are 5x5 to 19x19"));
        size_ = *n;
        return *n;
    }

    Rules readRules(const SgfNode& root) const {
        std::optional<int> target;
        const SgfProperty* xt = root.find("XT");
        if (xt) {
            target = wholeNumber(xt->values[0]);
            if (!target || *target < 1)
                throw ParseError(cat("SGF ", shown(*xt), ": the capture target must be 1 or more"));
        }
        bool capture = xt != nullptr;
        if (const SgfProperty* ru = root.find("RU")) {
            std::string text = lower(simpleText(ru->values[0]));
            if (text.rfind("capture:", 0) == 0) {
                std::optional<int> n = wholeNumber(std::string_view(text).substr(8));
                if (!n || *n < 1)
                    throw ParseError(cat("SGF ", shown(*ru), ": the capture target must be 1 or more"));
                if (target && *target != *n)
                    throw ParseError(cat("SGF ", shown(*ru), " and ", shown(*xt), " disagree"));
                target = n;
                capture = true;
            } else if (xt) {
                throw ParseError(cat("SGF ", shown(*ru), " is not the capture rule set, but ", shown(*xt),
                                     " gives a capture target"));
            }
        }
        Rules rules = capture ? Rules::capture(*target) : Rules::go();
        if (const SgfProperty* km = root.find("KM")) {
            double komi = 0;
            if (!parsePoints(simpleText(km->values[0]), &komi))
                throw ParseError(cat("SGF ", shown(*km), ": komi must be a multiple of 0.5"));
            rules.komi = komi;
        }
        return rules;
    }

    Point point(const std::string& value, const std::string& property, std::size_t k) const {
        auto letter = [](char c) { return c >= 'a' && c <= 'z' ? c - 'a' : -1; };
        if (value.size() != 2 || letter(value[0]) < 0 || letter(value[1]) < 0)
            throw ParseError(
                cat(where(k), ": ", property, "[", value, "] is not a point (two letters a..s)"));
        int col = letter(value[0]), row = size_ - 1 - letter(value[1]);
        if (col >= size_ || row < 0)
            throw ParseError(
                cat(where(k), ": ", property, "[", value, "] is off the ", size_, "x", size_, " board"));
        return Point{col, row};
    }

    void applySetup(const SgfNode& node, std::size_t k, Position& start,
                    std::optional<Color>& firstPlayer) const {
        static const std::pair<const char*, Cell> kSetup[] = {
            {"AB", Cell::Black}, {"AW", Cell::White}, {"AE", Cell::Empty}};
        for (const auto& [id, colour] : kSetup) {
            const SgfProperty* p = node.find(id);
            if (!p) continue;
            for (const std::string& value : p->values) {
                std::size_t colon = value.find(':');
                if (colon == std::string::npos) {
                    start.setStone(point(value, id, k), colour);
                    continue;
                }
                // A compressed list: the rectangle between two corners.
                Point a = point(value.substr(0, colon), id, k), b = point(value.substr(colon + 1), id, k);
                for (int row = std::min(a.row, b.row); row <= std::max(a.row, b.row); ++row)
                    for (int col = std::min(a.col, b.col); col <= std::max(a.col, b.col); ++col)
                        start.setStone({col, row}, colour);
            }
        }
        if (const SgfProperty* pl = node.find("PL")) {
            std::string v = lower(pl->values[0]);
            if (v == "b" || v == "black")
                firstPlayer = Color::Black;
            else if (v == "w" || v == "white")
                firstPlayer = Color::White;
            else
                throw ParseError(cat(where(k), ": ", shown(*pl), " is neither B nor W"));
        }
    }

    std::pair<Color, Move> moveOf(const SgfNode& node) const {
        std::size_t k = static_cast<std::size_t>(&node - nodes_.data());
        const SgfProperty* b = node.find("B");
        const SgfProperty* w = node.find("W");
        if (b && w) throw ParseError(cat(where(k), ": a black and a white move in one node"));
        const SgfProperty* p = b ? b : w;
        if (p->values.size() != 1) throw ParseError(cat(where(k), ": ", p->id, " has more than one value"));
        Color colour = b ? Color::Black : Color::White;
        const std::string& value = p->values[0];
        if (value.empty() || value == "tt") return {colour, Move::pass()};
        return {colour, Move::at(point(value, p->id, k))};
    }

    void applyStartCounts(const SgfNode& root, Position& start) const {
        auto count = [&](const char* id, int max) -> std::optional<int> {
            const SgfProperty* p = root.find(id);
            if (!p) return std::nullopt;
            std::optional<int> n = wholeNumber(p->values[0]);
            if (!n || *n > max) throw ParseError(cat("SGF ", shown(*p), ": not a count from 0 to ", max));
            return n;
        };
        if (auto n = count("XB", 1000000)) start.setCaptures(Color::Black, *n);
        if (auto n = count("XW", 1000000)) start.setCaptures(Color::White, *n);
        if (auto n = count("XP", 1000000)) start.setConsecutivePasses(*n);
    }

    static void readInfo(const SgfNode& root, Game& game) {
        auto text = [&](const char* id) {
            const SgfProperty* p = root.find(id);
            return p ? simpleText(p->values[0]) : std::string();
        };
        game.info.black = text("PB");
        game.info.white = text("PW");
        game.info.date = text("DT");
        game.info.event = text("EV");
    }

    static void applyRecordedResult(const SgfNode& root, Game& game) {
        const SgfProperty* re = root.find("RE");
        if (!re || game.isOver()) return;
        std::optional<Result> recorded = parseSgfResult(simpleText(re->values[0]));
        if (!recorded || recorded->outcome == Outcome::Draw || recorded->outcome == Outcome::Ongoing) return;
        Color loser = recorded->outcome == Outcome::BlackWins ? Color::White : Color::Black;
        if (recorded->ending == Ending::Resignation) game.resign(loser);
        if (recorded->ending == Ending::Time) game.loseOnTime(loser);
        if (recorded->ending == Ending::Forfeit) game.forfeit(loser, "");
    }

    std::vector<SgfNode> nodes_;
    int size_ = 19;
};

}  // namespace

Game readSgf(std::string_view text) {
    std::vector<SgfNode> nodes = parseSgfMainLine(text);
    return SgfReader(std::move(nodes)).read();
}

Game readSgf(const SgfGameTree& tree) {
    if (tree.mainLine.empty()) throw ParseError("SGF: an empty game tree");
    return SgfReader(tree.mainLine).read();
}

std::vector<Game> readSgfCollection(std::string_view text) {
    std::vector<Game> games;
    std::vector<SgfGameTree> trees = parseSgfCollection(text);
    for (std::size_t i = 0; i < trees.size(); ++i) {
        try {
            games.push_back(readSgf(trees[i]));
        } catch (const SgfMoveError& e) {
            throw SgfMoveError(cat("SGF game ", i + 1, " (line ", trees[i].line, "): ", e.what()),
                               e.moveNumber, e.move, e.why);
        } catch (const ParseError& e) {
            throw ParseError(cat("SGF game ", i + 1, " (line ", trees[i].line, "): ", e.what()));
        }
    }
    return games;
}

}  // namespace xq::capturego
