#include "capturego/position.h"

#include <stdexcept>

#include "capturego/concat.h"
#include "capturego/notation.h"

namespace xq::capturego {

using detail::cat;

namespace {

constexpr int kStride = kMaxBoardSize + 2;
constexpr int kCells = kStride * kStride;
constexpr int kDirs[4] = {1, -1, kStride, -kStride};

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Zobrist keys: one per (colour, padded point), and one per board size so that the empty boards of two
// sizes differ. Fixed at compile time, so keys are the same in every process.
struct ZobristKeys {
    std::array<std::uint64_t, 2 * kCells> stones{};
    std::array<std::uint64_t, kMaxBoardSize + 1> sizes{};
};

constexpr ZobristKeys makeKeys() {
    ZobristKeys keys;
    std::uint64_t state = 0x4361707475726547ULL;
    for (auto& key : keys.stones) key = splitmix64(state);
    for (auto& key : keys.sizes) key = splitmix64(state);
    return keys;
}

constexpr ZobristKeys kKeys = makeKeys();

constexpr std::uint8_t kEmpty = static_cast<std::uint8_t>(Cell::Empty);

bool isStone(std::uint8_t cell) {
    return cell == 1 || cell == 2;
}
std::uint8_t cellOf(Color c) {
    return static_cast<std::uint8_t>(stoneOf(c));
}

}  // namespace

static_assert(kCells < 65536, "points must fit the 16-bit group arrays");

// ---- Marks: one bit per padded point, on the stack, so that const queries need no mutable state ----

namespace {
template <typename M>
bool marked(const M& m, int i) {
    return (m[static_cast<unsigned>(i) >> 6] >> (i & 63)) & 1;
}
template <typename M>
void mark(M& m, int i) {
    m[static_cast<unsigned>(i) >> 6] |= std::uint64_t{1} << (i & 63);
}
}  // namespace

std::uint64_t Position::stoneKey(std::uint8_t cell, int i) {
    return kKeys.stones[(cell - 1) * kCells + i];
}

Position::Position(int size, Rules rules) : size_(size), rules_(rules) {
    if (size < kMinBoardSize || size > kMaxBoardSize)
        throw std::invalid_argument(cat("board size ", size, " is outside 5..19"));
    if (std::string problem = rulesProblem(rules); !problem.empty()) throw std::invalid_argument(problem);
    cell_.fill(kOff);
    root_.fill(0);
    next_.fill(0);
    libs_.fill(0);
    count_.fill(0);
    for (int row = 0; row < size_; ++row)
        for (int col = 0; col < size_; ++col) cell_[indexOf({col, row})] = kEmpty;
    hash_ = kKeys.sizes[size_];
    resetHistory();
}

void Position::setRules(const Rules& rules) {
    if (std::string problem = rulesProblem(rules); !problem.empty()) throw std::invalid_argument(problem);
    rules_ = rules;
}

Cell Position::at(Point p) const {
    return onBoard(p) ? static_cast<Cell>(cell_[indexOf(p)]) : Cell::Empty;
}

int Position::stoneCount(Color c) const {
    int n = 0;
    for (std::uint8_t v : cell_) n += v == cellOf(c);
    return n;
}

// ---- Legality ----

std::uint64_t Position::hashAfter(int p, Color c, const int* captureRoots, int captureCount) const {
    std::uint64_t key = hash_ ^ stoneKey(cellOf(c), p);
    std::uint8_t opp = cellOf(opponent(c));
    for (int k = 0; k < captureCount; ++k) {
        int s = captureRoots[k];
        do {
            key ^= stoneKey(opp, s);
            s = next_[s];
        } while (s != captureRoots[k]);
    }
    return key;
}

Legality Position::checkAt(int p) const {
    if (cell_[p] != kEmpty) return Legality::Occupied;
    std::uint8_t own = cellOf(toMove_), opp = cellOf(opponent(toMove_));
    bool breathes = false;
    int captured[4];
    int capturedCount = 0;
    for (int d : kDirs) {
        int n = p + d;
        std::uint8_t v = cell_[n];
        if (v == kEmpty) {
            breathes = true;
        } else if (v == own) {
            if (libs_[root_[n]] > 1) breathes = true;
        } else if (v == opp && libs_[root_[n]] == 1) {
            int r = root_[n];
            bool seen = false;
            for (int k = 0; k < capturedCount; ++k) seen |= captured[k] == r;
            if (!seen) captured[capturedCount++] = r;
        }
    }
    if (!breathes && capturedCount == 0) return Legality::Suicide;
    if (occurred(hashAfter(p, toMove_, captured, capturedCount))) return Legality::Superko;
    return Legality::Legal;
}

Legality Position::check(Move m) const {
    if (m.isPass()) return Legality::Legal;
    if (!onBoard(m.point())) return Legality::OffBoard;
    return checkAt(indexOf(m.point()));
}

std::string Position::whyIllegal(Move m) const {
    std::string name = m.isPass() ? "pass" : pointName(m.point());
    switch (check(m)) {
        case Legality::Legal:
            return "";
        case Legality::OffBoard:
            return cat(name, " is off the ", size_, "x", size_, " board");
        case Legality::Occupied:
            return cat(name, " is occupied");
        case Legality::Suicide:
            return cat(name, " is suicide");
        case Legality::Superko:
            return cat(name, " repeats an earlier position (superko)");
    }
    return "";
}

std::vector<Move> Position::legalMoves() const {
    std::vector<Move> moves;
    moves.reserve(size_ * size_ + 1);
    for (int row = 0; row < size_; ++row)
        for (int col = 0; col < size_; ++col)
            if (checkAt(indexOf({col, row})) == Legality::Legal) moves.push_back(Move::at(col, row));
    moves.push_back(Move::pass());
    return moves;
}

// ---- Playing and undoing ----

// Floods the group of the stone at `seed` and makes it a group of its own: root `seed`, its stones in one
// circular list, its liberties counted. Marks its stones in `done`.
void Position::rebuildGroup(int seed, Marks& done) {
    std::uint8_t colour = cell_[seed];
    std::array<std::uint16_t, kCells> stack;
    Marks liberties{};
    int top = 0, stones = 0, libs = 0, last = -1;
    stack[top++] = static_cast<std::uint16_t>(seed);
    mark(done, seed);
    while (top > 0) {
        int s = stack[--top];
        root_[s] = static_cast<std::uint16_t>(seed);
        if (last >= 0) next_[last] = static_cast<std::uint16_t>(s);
        last = s;
        ++stones;
        for (int d : kDirs) {
            int n = s + d;
            if (cell_[n] == colour && !marked(done, n)) {
                mark(done, n);
                stack[top++] = static_cast<std::uint16_t>(n);
            } else if (cell_[n] == kEmpty && !marked(liberties, n)) {
                mark(liberties, n);
                ++libs;
            }
        }
    }
    next_[last] = static_cast<std::uint16_t>(seed);
    count_[seed] = static_cast<std::uint16_t>(stones);
    libs_[seed] = static_cast<std::uint16_t>(libs);
}

void Position::removeGroup(int root) {
    int s = root;
    do {
        capturedLog_.push_back(static_cast<std::uint16_t>(s));
        hash_ ^= stoneKey(cell_[s], s);
        cell_[s] = kEmpty;
        s = next_[s];
    } while (s != root);
}

bool Position::play(Move m, std::string* why) {
    if (Legality legality = check(m); legality != Legality::Legal) {
        if (why) *why = whyIllegal(m);
        return false;
    }
    undo_.push_back(UndoEntry{m, toMove_, passes_, static_cast<std::uint32_t>(capturedLog_.size())});
    if (m.isPass()) {
        ++passes_;
    } else {
        int p = indexOf(m.point());
        std::uint8_t own = cellOf(toMove_), opp = cellOf(opponent(toMove_));
        cell_[p] = own;
        hash_ ^= stoneKey(own, p);
        // Each opponent group next to p loses the liberty p (once, however many stones touch it); a group
        // left without liberties goes. The mover's own groups are never removed.
        int touched[4];
        int touchedCount = 0;
        for (int d : kDirs) {
            int n = p + d;
            if (cell_[n] != opp) continue;
            bool seen = false;
            for (int k = 0; k < touchedCount; ++k) seen |= touched[k] == root_[n];
            if (!seen) touched[touchedCount++] = root_[n];
        }
        std::size_t capturedFrom = capturedLog_.size();
        for (int k = 0; k < touchedCount; ++k)
            if (--libs_[touched[k]] == 0) removeGroup(touched[k]);
        // The new stone joins its neighbours of its colour; groups next to removed stones gain liberties.
        Marks done{};
        rebuildGroup(p, done);
        for (std::size_t k = capturedFrom; k < capturedLog_.size(); ++k)
            for (int d : kDirs) {
                int n = capturedLog_[k] + d;
                if (cell_[n] == own && !marked(done, n)) rebuildGroup(n, done);
            }
        captures_[index(toMove_)] += static_cast<int>(capturedLog_.size() - capturedFrom);
        passes_ = 0;
    }
    toMove_ = opponent(toMove_);
    addToHistory(hash_);
    return true;
}

bool Position::undo() {
    if (undo_.empty()) return false;
    UndoEntry entry = undo_.back();
    undo_.pop_back();
    history_.pop_back();
    rebuildFilter();
    hash_ = history_.back();
    toMove_ = entry.mover;
    passes_ = entry.passesBefore;
    if (entry.move.isPass()) return true;

    int p = indexOf(entry.move.point());
    std::uint8_t opp = cellOf(opponent(entry.mover));
    cell_[p] = kEmpty;
    for (std::size_t k = entry.capturedFrom; k < capturedLog_.size(); ++k) cell_[capturedLog_[k]] = opp;
    // Every group whose stones or liberties changed holds p's neighbours, a restored stone or a restored
    // stone's neighbour: re-flood those.
    Marks done{};
    auto refresh = [&](int n) {
        if (isStone(cell_[n]) && !marked(done, n)) rebuildGroup(n, done);
    };
    for (int d : kDirs) refresh(p + d);
    for (std::size_t k = entry.capturedFrom; k < capturedLog_.size(); ++k) {
        refresh(capturedLog_[k]);
        for (int d : kDirs) refresh(capturedLog_[k] + d);
    }
    captures_[index(entry.mover)] -= static_cast<int>(capturedLog_.size() - entry.capturedFrom);
    capturedLog_.resize(entry.capturedFrom);
    return true;
}

std::optional<Move> Position::lastMove() const {
    if (undo_.empty()) return std::nullopt;
    return undo_.back().move;
}

std::vector<Point> Position::lastCaptured() const {
    std::vector<Point> points;
    if (undo_.empty()) return points;
    for (std::size_t k = undo_.back().capturedFrom; k < capturedLog_.size(); ++k)
        points.push_back(pointOf(capturedLog_[k]));
    return points;
}

// ---- Groups ----

int Position::liberties(Point p) const {
    if (!onBoard(p) || !isStone(cell_[indexOf(p)])) return 0;
    return libs_[root_[indexOf(p)]];
}

bool Position::anyGroupInAtari() const {
    for (int row = 0; row < size(); ++row)
        for (int col = 0; col < size(); ++col)
            if (at({col, row}) != Cell::Empty && liberties({col, row}) < 2) return true;
    return false;
}

int Position::groupSize(Point p) const {
    if (!onBoard(p) || !isStone(cell_[indexOf(p)])) return 0;
    return count_[root_[indexOf(p)]];
}

std::vector<Point> Position::group(Point p) const {
    std::vector<Point> stones;
    if (!onBoard(p) || !isStone(cell_[indexOf(p)])) return stones;
    int first = indexOf(p), s = first;
    do {
        stones.push_back(pointOf(s));
        s = next_[s];
    } while (s != first);
    return stones;
}

std::vector<Point> Position::libertyPoints(Point p) const {
    std::vector<Point> points;
    if (!onBoard(p) || !isStone(cell_[indexOf(p)])) return points;
    Marks seen{};
    int first = indexOf(p), s = first;
    do {
        for (int d : kDirs)
            if (cell_[s + d] == kEmpty && !marked(seen, s + d)) {
                mark(seen, s + d);
                points.push_back(pointOf(s + d));
            }
        s = next_[s];
    } while (s != first);
    return points;
}

// ---- Repetition ----

void Position::addToHistory(std::uint64_t key) {
    history_.push_back(key);
    mark(filter_, static_cast<int>(key & 2047));
}

void Position::rebuildFilter() {
    filter_.fill(0);
    for (std::uint64_t key : history_) mark(filter_, static_cast<int>(key & 2047));
}

void Position::resetHistory() {
    history_.clear();
    undo_.clear();
    capturedLog_.clear();
    filter_.fill(0);
    addToHistory(hash_);
}

bool Position::occurred(std::uint64_t key) const {
    if (!marked(filter_, static_cast<int>(key & 2047))) return false;
    for (std::uint64_t k : history_)
        if (k == key) return true;
    return false;
}

// ---- Score ----

AreaScore Position::areaScore() const {
    AreaScore score;
    Marks seen{};
    std::array<std::uint16_t, kCells> stack;
    for (int row = 0; row < size_; ++row)
        for (int col = 0; col < size_; ++col) {
            int i = indexOf({col, row});
            if (cell_[i] == cellOf(Color::Black)) ++score.black;
            if (cell_[i] == cellOf(Color::White)) ++score.white;
            if (cell_[i] != kEmpty || marked(seen, i)) continue;
            // An empty region: count it, and note which colours border it.
            int top = 0, points = 0, borders = 0;
            stack[top++] = static_cast<std::uint16_t>(i);
            mark(seen, i);
            while (top > 0) {
                int s = stack[--top];
                ++points;
                for (int d : kDirs) {
                    int n = s + d;
                    if (cell_[n] == kEmpty && !marked(seen, n)) {
                        mark(seen, n);
                        stack[top++] = static_cast<std::uint16_t>(n);
                    } else if (isStone(cell_[n])) {
                        borders |= cell_[n];
                    }
                }
            }
            if (borders == cellOf(Color::Black)) score.black += points;
            if (borders == cellOf(Color::White)) score.white += points;
        }
    return score;
}

// ---- Setup ----

void Position::setStone(Point p, Cell c) {
    if (!onBoard(p)) throw std::invalid_argument(cat(pointName(p), " is off the board"));
    int i = indexOf(p);
    if (cell_[i] != kEmpty) hash_ ^= stoneKey(cell_[i], i);
    cell_[i] = static_cast<std::uint8_t>(c);
    if (c != Cell::Empty) hash_ ^= stoneKey(cell_[i], i);
    Marks done{};
    if (isStone(cell_[i])) rebuildGroup(i, done);
    for (int d : kDirs)
        if (isStone(cell_[i + d]) && !marked(done, i + d)) rebuildGroup(i + d, done);
    resetHistory();
}

void Position::setToMove(Color c) {
    toMove_ = c;
    resetHistory();
}

void Position::setCaptures(Color player, int n) {
    captures_[index(player)] = n;
    resetHistory();
}

void Position::setConsecutivePasses(int n) {
    passes_ = n;
    resetHistory();
}

std::string Position::validate() const {
    for (int row = 0; row < size_; ++row)
        for (int col = 0; col < size_; ++col) {
            int i = indexOf({col, row});
            if (isStone(cell_[i]) && libs_[root_[i]] == 0)
                return cat("the ", cell_[i] == cellOf(Color::Black) ? "black" : "white", " group at ",
                           pointName({col, row}), " has no liberties");
        }
    return "";
}

}  // namespace xq::capturego
