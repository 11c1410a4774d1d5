#include "goengine/board.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "capturego/notation.h"
#include "goengine/zobrist.h"

namespace xq::go {

const ZobristKeys& zobrist() {
    static const ZobristKeys keys = [] {
        ZobristKeys k{};
        std::uint64_t s = 0x5EED5EED2024ULL;
        for (auto& colour : k.stone)
            for (auto& key : colour) key = splitMix64(s++);
        k.whiteToMove = splitMix64(s++);
        k.passPending = splitMix64(s++);
        return k;
    }();
    return keys;
}

const char* moveErrorText(MoveError e) {
    switch (e) {
        case MoveError::None:
            return "legal";
        case MoveError::OffBoard:
            return "not a point of the board";
        case MoveError::Occupied:
            return "the point is occupied";
        case MoveError::Suicide:
            return "suicide";
        case MoveError::Superko:
            return "positional superko: it repeats an earlier position";
        case MoveError::GameOver:
            return "the game is over";
    }
    return "?";
}

Board::Board(int size, Rules rules, StartPosition start) : n_(size), w_(size + 2), rules_(rules) {
    if (size < kMinSize || size > kMaxSize) throw std::invalid_argument("board size out of range");
    for (int r = 0; r < n_; ++r)
        for (int c = 0; c < n_; ++c) {
            Point p = point(c, r);
            cells_[p].color = Empty;
            points_.push_back(p);
        }
    if (start == StartPosition::Crosscut) {
        if (size < 3) throw std::invalid_argument("the crosscut start needs a board of 3x3 or more");
        int lo = crosscutLow(size);
        place(point(lo, lo), Black);
        place(point(lo + 1, lo + 1), Black);
        place(point(lo, lo + 1), White);
        place(point(lo + 1, lo), White);
    }
    seen_[stoneHash_] = 1;
}

void Board::setToMove(Color c) {
    toMove_ = c;
}

std::uint64_t Board::key() const {
    std::uint64_t k = stoneHash_ ^ captureKey(captures_[0], captures_[1]);
    if (toMove_ == White) k ^= zobrist().whiteToMove;
    if (passes_ > 0) k ^= zobrist().passPending;
    return k;
}

int Board::libertyPoints(Point p, Point* out, int max) const {
    ++markStamp_;
    int count = 0;
    Point q = p;
    do {
        for (Point r : neighbours(q))
            if (cells_[r].color == Empty && mark_[r] != markStamp_) {
                mark_[r] = markStamp_;
                if (count < max) out[count] = r;
                ++count;
            }
        q = cells_[q].next;
    } while (q != p);
    return count < max ? count : max;
}

void Board::recountLiberties(Point h) {
    ++markStamp_;
    int libs = 0;
    Point q = h;
    do {
        for (Point r : neighbours(q))
            if (cells_[r].color == Empty && mark_[r] != markStamp_) mark_[r] = markStamp_, ++libs;
        q = cells_[q].next;
    } while (q != h);
    cells_[h].libs = std::int16_t(libs);
}

void Board::place(Point p, Color c) {
    Cell& cp = cells_[p];
    cp.color = c;
    cp.head = cp.next = std::int16_t(p);
    cp.size = 1;
    stoneHash_ ^= zobrist().stone[colorIndex(c)][p];
    Point heads[4];
    int nh = 0;
    bool friendly = false;
    int emptyNbrs = 0;
    for (Point q : neighbours(p)) {
        Color qc = Color(cells_[q].color);
        if (qc == Empty) {
            ++emptyNbrs;
        } else if (qc != Border) {
            Point h = cells_[q].head;
            bool dup = false;
            for (int i = 0; i < nh; ++i) dup |= heads[i] == h;
            if (!dup) heads[nh++] = h, --cells_[h].libs;  // p was a liberty of that group
            friendly |= qc == c;
        }
    }
    if (!friendly) {
        cp.libs = std::int16_t(emptyNbrs);
        return;
    }
    // Merge the friendly groups into the largest.
    Point big = p;
    for (int i = 0; i < nh; ++i)
        if (cells_[heads[i]].color == c && cells_[heads[i]].size > cells_[big].size) big = heads[i];
    auto absorb = [&](Point small) {
        Point q = small;
        do {
            cells_[q].head = std::int16_t(big);
            q = cells_[q].next;
        } while (q != small);
        std::swap(cells_[big].next, cells_[small].next);
        cells_[big].size = std::int16_t(cells_[big].size + cells_[small].size);
    };
    if (big != p) absorb(p);
    for (int i = 0; i < nh; ++i)
        if (cells_[heads[i]].color == c && heads[i] != big) absorb(heads[i]);
    recountLiberties(big);
}

int Board::removeGroup(Point p) {
    Color c = Color(cells_[p].color);
    const auto& keys = zobrist().stone[colorIndex(c)];
    int count = 0;
    Point q = p;
    do {
        cells_[q].color = Empty;
        stoneHash_ ^= keys[q];
        ++count;
        q = cells_[q].next;
    } while (q != p);
    // Each emptied point is a new liberty of every distinct neighbouring group (of the other colour).
    q = p;
    do {
        Point heads[4];
        int nh = 0;
        for (Point r : neighbours(q)) {
            Color rc = Color(cells_[r].color);
            if (rc != Empty && rc != Border) {
                Point h = cells_[r].head;
                bool dup = false;
                for (int i = 0; i < nh; ++i) dup |= heads[i] == h;
                if (!dup) heads[nh++] = h, ++cells_[h].libs;
            }
        }
        q = cells_[q].next;
    } while (q != p);
    return count;
}

MoveError Board::check(Point p, Color c) const {
    if (gameOver()) return MoveError::GameOver;
    if (p == kPass) return MoveError::None;
    if (!onBoard(p)) return MoveError::OffBoard;
    if (cells_[p].color != Empty) return MoveError::Occupied;
    const auto& z = zobrist();
    std::uint64_t h = stoneHash_ ^ z.stone[colorIndex(c)][p];
    Color o = opponent(c);
    Point captured[4];
    int nc = 0;
    bool breathes = false;
    for (Point q : neighbours(p)) {
        Color qc = Color(cells_[q].color);
        if (qc == Empty) {
            breathes = true;
        } else if (qc == c) {
            breathes |= liberties(q) > 1;
        } else if (qc == o && liberties(q) == 1) {
            Point hd = cells_[q].head;
            bool dup = false;
            for (int i = 0; i < nc; ++i) dup |= captured[i] == hd;
            if (!dup) {
                captured[nc++] = hd;
                forEachStone(hd, [&](Point s) { h ^= z.stone[colorIndex(o)][s]; });
            }
        }
    }
    if (nc == 0 && !breathes) return MoveError::Suicide;
    if (seen_.count(h)) return MoveError::Superko;
    return MoveError::None;
}

void Board::pushSnapshot() {
    Snapshot s{toMove_,
               std::uint8_t(passes_),
               {std::int16_t(captures_[0]), std::int16_t(captures_[1])},
               lastMove_,
               stoneHash_,
               result_,
               int(undoCells_.size()),
               false};
    undoCells_.insert(undoCells_.end(), cells_.begin(), cells_.begin() + w_ * w_);
    undo_.push_back(s);
}

void Board::afterMove(Color mover, int captured) {
    captures_[colorIndex(mover)] += captured;
    passes_ = 0;
    toMove_ = opponent(mover);
    if (rules_.ruleSet == RuleSet::Capture && captures_[colorIndex(mover)] >= rules_.target)
        result_ = GameResult{mover == Black ? Winner::Black : Winner::White, EndReason::Capture, 0.0, 0};
}

MoveError Board::play(Point p, Color c) {
    MoveError e = check(p, c);
    if (e != MoveError::None) return e;
    pushSnapshot();
    if (p == kPass) {
        ++passes_;
        toMove_ = opponent(c);
        lastMove_ = kPass;
        if (passes_ >= 2) result_ = scoreByPasses();
        return MoveError::None;
    }
    place(p, c);
    int captured = 0;
    for (Point q : neighbours(p))
        if (cells_[q].color == opponent(c) && liberties(q) == 0) captured += removeGroup(q);
    lastMove_ = p;
    afterMove(c, captured);
    ++seen_[stoneHash_];
    undo_.back().addedHistory = true;
    return MoveError::None;
}

void Board::playUnchecked(Point p, Color c) {
    if (p == kPass) {
        ++passes_;
        toMove_ = opponent(c);
        lastMove_ = kPass;
        if (passes_ >= 2) result_ = scoreByPasses();
        return;
    }
    place(p, c);
    int captured = 0;
    for (Point q : neighbours(p))
        if (cells_[q].color == opponent(c) && liberties(q) == 0) captured += removeGroup(q);
    lastMove_ = p;
    afterMove(c, captured);
}

void Board::copyPositionFrom(const Board& o) {
    if (n_ != o.n_) {
        n_ = o.n_;
        w_ = o.w_;
        points_ = o.points_;
        for (auto& cell : cells_) cell = Cell{};
    }
    rules_ = o.rules_;
    std::memcpy(cells_.data(), o.cells_.data(), sizeof(Cell) * std::size_t(w_ * w_));
    toMove_ = o.toMove_;
    passes_ = o.passes_;
    captures_[0] = o.captures_[0];
    captures_[1] = o.captures_[1];
    lastMove_ = o.lastMove_;
    stoneHash_ = o.stoneHash_;
    result_ = o.result_;
    undo_.clear();
    undoCells_.clear();
    seen_.clear();
}

void Board::resign(Color c) {
    if (gameOver()) return;
    pushSnapshot();
    result_ = GameResult{c == Black ? Winner::White : Winner::Black, EndReason::Resignation, 0.0, 0};
}

void Board::setPosition(const std::vector<std::pair<Point, Color>>& stones, Color toMove, int blackCaptures,
                        int whiteCaptures, int passes) {
    for (Point p : points_) {
        Cell& c = cells_[p];
        c = Cell{};
        c.color = Empty;
    }
    stoneHash_ = 0;
    for (const auto& [p, c] : stones)
        if (onBoard(p) && cells_[p].color == Empty && (c == Black || c == White)) place(p, c);
    toMove_ = toMove;
    captures_[0] = blackCaptures;
    captures_[1] = whiteCaptures;
    passes_ = passes;
    lastMove_ = kNoPoint;
    result_ = GameResult{};
    if (rules_.ruleSet == RuleSet::Capture) {
        const Color last = opponent(toMove);
        for (Color c : {last, toMove})
            if (!result_.over() && captures_[colorIndex(c)] >= rules_.target)
                result_ = GameResult{c == Black ? Winner::Black : Winner::White, EndReason::Capture, 0.0, 0};
    }
    if (!result_.over() && passes_ >= 2) result_ = scoreByPasses();
    undo_.clear();
    undoCells_.clear();
    seen_.clear();
    seen_[stoneHash_] = 1;
}

bool Board::undo() {
    if (undo_.empty()) return false;
    const Snapshot& s = undo_.back();
    if (s.addedHistory) {
        auto it = seen_.find(stoneHash_);
        if (it != seen_.end() && --it->second == 0) seen_.erase(it);
    }
    std::memcpy(cells_.data(), undoCells_.data() + s.cellOffset, sizeof(Cell) * std::size_t(w_ * w_));
    undoCells_.resize(std::size_t(s.cellOffset));
    toMove_ = s.toMove;
    passes_ = s.passes;
    captures_[0] = s.captures[0];
    captures_[1] = s.captures[1];
    lastMove_ = s.lastMove;
    stoneHash_ = s.stoneHash;
    result_ = s.result;
    undo_.pop_back();
    return true;
}

std::vector<Point> Board::legalMoves() const {
    return legalMoves(toMove_);
}

std::vector<Point> Board::legalMoves(Color c) const {
    std::vector<Point> moves;
    if (gameOver()) return moves;
    for (Point p : points_)
        if (cells_[p].color == Empty && check(p, c) == MoveError::None) moves.push_back(p);
    return moves;
}

Board::Probe Board::probe(Point p, Color c, int cap) const {
    Probe r;
    Color o = opponent(c);
    Point own[4], caps[4];
    int no = 0, nc = 0;
    for (Point q : neighbours(p)) {
        Color qc = Color(cells_[q].color);
        Point h = cells_[q].head;
        if (qc == c) {
            bool dup = false;
            for (int i = 0; i < no; ++i) dup |= own[i] == h;
            if (!dup) own[no++] = h;
        } else if (qc == o && cells_[h].libs == 1) {
            bool dup = false;
            for (int i = 0; i < nc; ++i) dup |= caps[i] == h;
            if (!dup) caps[nc++] = h, r.captured += cells_[h].size;
        }
    }
    ++markStamp_;
    mark_[p] = markStamp_;
    int libs = 0;
    auto addLib = [&](Point q) {
        if (mark_[q] != markStamp_) mark_[q] = markStamp_, ++libs;
    };
    for (Point q : neighbours(p))
        if (cells_[q].color == Empty) addLib(q);
    for (int i = 0; i < no && libs < cap; ++i)
        forEachStone(own[i], [&](Point s) {
            for (Point q : neighbours(s))
                if (cells_[q].color == Empty) addLib(q);
        });
    // Captured stones next to the new group become its liberties.
    for (int i = 0; i < nc && libs < cap; ++i)
        forEachStone(caps[i], [&](Point s) {
            for (Point q : neighbours(s)) {
                bool touches = q == p;
                for (int j = 0; j < no && !touches; ++j)
                    touches = cells_[q].color == c && cells_[q].head == own[j];
                if (touches) {
                    addLib(s);
                    break;
                }
            }
        });
    r.libs = libs < cap ? libs : cap;
    return r;
}

bool Board::isOwnEye(Point p, Color c) const {
    if (cells_[p].color != Empty) return false;
    for (Point q : neighbours(p))
        if (cells_[q].color != c && cells_[q].color != Border) return false;
    return true;
}

int Board::area(Color c) const {
    int total = 0;
    ++markStamp_;
    std::uint32_t stamp = markStamp_;
    Point stack[kMaxCells];
    for (Point p : points_) {
        if (cells_[p].color == c) {
            ++total;
            continue;
        }
        if (cells_[p].color != Empty || mark_[p] == stamp) continue;
        int sp = 0, region = 0;
        bool reachesC = false, reachesOther = false;
        stack[sp++] = p;
        mark_[p] = stamp;
        while (sp) {
            Point q = stack[--sp];
            ++region;
            for (Point r : neighbours(q)) {
                Color rc = Color(cells_[r].color);
                if (rc == Empty && mark_[r] != stamp) {
                    mark_[r] = stamp;
                    stack[sp++] = r;
                } else if (rc == c) {
                    reachesC = true;
                } else if (rc == opponent(c)) {
                    reachesOther = true;
                }
            }
        }
        if (reachesC && !reachesOther) total += region;
    }
    return total;
}

double Board::areaMargin() const {
    return area(Black) - area(White) - rules_.komi;
}

GameResult Board::scoreByPasses() const {
    GameResult r;
    r.reason = EndReason::Passes;
    if (rules_.ruleSet == RuleSet::Capture && captures_[0] != captures_[1]) {
        r.winner = captures_[0] > captures_[1] ? Winner::Black : Winner::White;
        r.captureMargin =
            captures_[0] > captures_[1] ? captures_[0] - captures_[1] : captures_[1] - captures_[0];
        return r;
    }
    r.margin = areaMargin();
    r.winner = r.margin > 0 ? Winner::Black : r.margin < 0 ? Winner::White : Winner::Draw;
    return r;
}

std::string Board::toString() const {
    std::string s = "   ";
    for (int c = 0; c < n_; ++c) s += capturego::pointName({c, 0})[0], s += ' ';
    s += '\n';
    for (int r = n_ - 1; r >= 0; --r) {
        char label[16];
        std::snprintf(label, sizeof label, "%2d ", r + 1);
        s += label;
        for (int c = 0; c < n_; ++c) {
            Color col = at(point(c, r));
            s += col == Black ? 'X' : col == White ? 'O' : '.';
            s += ' ';
        }
        s.pop_back();
        s += '\n';
    }
    return s;
}

std::string Board::pointName(Point p) const {
    if (p == kPass) return "pass";
    if (!onBoard(p)) return "?";
    return capturego::pointName({col(p), row(p)});
}

Point Board::parsePoint(const std::string& text) const {
    try {
        capturego::Move m = capturego::parseMove(text, n_);
        return m.isPass() ? kPass : point(m.point().col, m.point().row);
    } catch (const capturego::ParseError&) {
        return kNoPoint;
    }
}

}  // namespace xq::go
