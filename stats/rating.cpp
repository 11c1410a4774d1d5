#include "rating.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "elo.h"

namespace xq::stats {

namespace {

constexpr double K = 2.302585092994046 / 400;  // ln(10) / 400

double logistic(double x) {
    return 1 / (1 + std::exp(-K * x));
}

// Games aggregated by ordered pair: wins, draws and losses of `first`.
struct Cell {
    int first, second;
    double w = 0, d = 0, l = 0;
};

// The parameters: ratings of players 1..n-1 (player 0 is held at 0 while fitting), then adv, drawElo.
struct Problem {
    int n = 0;
    std::vector<Cell> cells;
    double priorVar = 0;  // 0: no prior
    bool fitAdvantage = true;

    int size() const { return n - 1 + 2; }
    double rating(const std::vector<double>& p, int i) const { return i == 0 ? 0 : p[std::size_t(i - 1)]; }

    // Log-likelihood plus log-prior; its gradient when `grad` is given.
    double value(const std::vector<double>& p, std::vector<double>* grad, double* plainLl = nullptr) const {
        const std::size_t A = std::size_t(n - 1), D = std::size_t(n);
        double adv = fitAdvantage ? p[A] : 0, draw = p[D];
        if (grad) grad->assign(p.size(), 0);
        double ll = 0;
        for (const auto& c : cells) {
            double diff = rating(p, c.first) + adv - rating(p, c.second);
            double pw = logistic(diff - draw), pl = logistic(-diff - draw);
            double pd = std::max(1 - pw - pl, 1e-300);
            ll += c.w * std::log(pw) + c.d * std::log(pd) + c.l * std::log(pl);
            if (!grad) continue;
            double sw = K * pw * (1 - pw), sl = K * pl * (1 - pl);
            // d/d(diff) and d/d(drawElo) of the cell's log-likelihood.
            double gDiff = c.w * sw / pw - c.l * sl / pl + c.d * (sl - sw) / pd;
            double gDraw = -c.w * sw / pw - c.l * sl / pl + c.d * (sw + sl) / pd;
            if (c.first) (*grad)[std::size_t(c.first - 1)] += gDiff;
            if (c.second) (*grad)[std::size_t(c.second - 1)] -= gDiff;
            if (fitAdvantage) (*grad)[A] += gDiff;
            (*grad)[D] += gDraw;
        }
        if (plainLl) *plainLl = ll;
        if (priorVar > 0) {
            double mean = 0;
            for (int i = 0; i < n; ++i) mean += rating(p, i);
            mean /= n;
            for (int i = 0; i < n; ++i) {
                double dev = rating(p, i) - mean;
                ll -= dev * dev / (2 * priorVar);
                // d/dr_j of -(sum (r_i - mean)^2) / 2v is -(r_j - mean) / v (the mean's terms cancel).
                if (grad && i > 0) (*grad)[std::size_t(i - 1)] -= dev / priorVar;
            }
        }
        return ll;
    }

    // The Hessian by central differences of the analytic gradient.
    std::vector<std::vector<double>> hessian(const std::vector<double>& p) const {
        const std::size_t m = p.size();
        std::vector<std::vector<double>> h(m, std::vector<double>(m, 0));
        std::vector<double> gp, gm;
        for (std::size_t j = 0; j < m; ++j) {
            double step = 1e-3 * std::max(1.0, std::abs(p[j]));
            auto q = p;
            q[j] = p[j] + step;
            value(q, &gp);
            q[j] = p[j] - step;
            value(q, &gm);
            for (std::size_t i = 0; i < m; ++i) h[i][j] = (gp[i] - gm[i]) / (2 * step);
        }
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < i; ++j) h[i][j] = h[j][i] = (h[i][j] + h[j][i]) / 2;
        if (!fitAdvantage) {  // a fixed advantage: keep the matrix invertible
            for (std::size_t i = 0; i < m; ++i) h[std::size_t(n - 1)][i] = h[i][std::size_t(n - 1)] = 0;
            h[std::size_t(n - 1)][std::size_t(n - 1)] = -1;
        }
        return h;
    }
};

// drawElo's lower bound: positive, so that a draw keeps a probability above zero.
constexpr double DrawEloFloor = 1e-6;

// Takes parameter k out of a Newton system: its row and column of the information become the identity's and
// its gradient 0, so the step leaves it where it is and the other parameters move as if it were a constant.
void holdFixed(std::vector<std::vector<double>>& info, std::vector<double>& grad, std::size_t k) {
    for (std::size_t i = 0; i < info.size(); ++i) info[i][k] = info[k][i] = 0;
    info[k][k] = 1;
    grad[k] = 0;
}

// Solves a x = b for a symmetric positive definite `a` (Cholesky); false if it is not.
bool solve(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x) {
    const std::size_t m = b.size();
    for (std::size_t j = 0; j < m; ++j) {
        double s = a[j][j];
        for (std::size_t k = 0; k < j; ++k) s -= a[j][k] * a[j][k];
        if (!(s > 0)) return false;
        a[j][j] = std::sqrt(s);
        for (std::size_t i = j + 1; i < m; ++i) {
            double t = a[i][j];
            for (std::size_t k = 0; k < j; ++k) t -= a[i][k] * a[j][k];
            a[i][j] = t / a[j][j];
        }
    }
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t k = 0; k < i; ++k) b[i] -= a[i][k] * b[k];
        b[i] /= a[i][i];
    }
    for (std::size_t i = m; i-- > 0;) {
        for (std::size_t k = i + 1; k < m; ++k) b[i] -= a[k][i] * b[k];
        b[i] /= a[i][i];
    }
    x = b;
    return true;
}

// The inverse of a symmetric positive definite matrix, column by column.
std::vector<std::vector<double>> inverse(const std::vector<std::vector<double>>& a) {
    const std::size_t m = a.size();
    std::vector<std::vector<double>> inv(m, std::vector<double>(m, 0));
    for (std::size_t j = 0; j < m; ++j) {
        std::vector<double> e(m, 0), x;
        e[j] = 1;
        if (!solve(a, e, x)) throw std::runtime_error("ratings: the information matrix is singular");
        for (std::size_t i = 0; i < m; ++i) inv[i][j] = x[i];
    }
    return inv;
}

}  // namespace

int RatingInput::player(const std::string& name) {
    int i = find(name);
    if (i >= 0) return i;
    names.push_back(name);
    return int(names.size()) - 1;
}

int RatingInput::find(const std::string& name) const {
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : int(it - names.begin());
}

void RatingInput::addGame(const std::string& first, const std::string& second, double score) {
    games.push_back({player(first), player(second), score});
}

void RatingInput::addTotals(const std::string& first, const std::string& second,
                            std::array<std::int64_t, 3> wdl) {
    int a = player(first), b = player(second);
    coloursKnown = false;
    for (std::size_t k = 0; k < 3; ++k) {
        double score = k == 0 ? 1 : k == 1 ? 0.5 : 0;
        std::int64_t asRed = (wdl[k] + 1) / 2, asBlack = wdl[k] - asRed;
        if (asRed > 0) games.push_back({a, b, score, asRed});
        if (asBlack > 0) games.push_back({b, a, 1 - score, asBlack});
    }
}

void outcomeProbabilities(double diff, double drawElo, double& win, double& draw, double& loss) {
    win = logistic(diff - drawElo);
    loss = logistic(-diff - drawElo);
    draw = 1 - win - loss;
}

RatingFit fitRatings(const std::vector<std::string>& names, const std::vector<RatedGame>& games,
                     const RatingOptions& options) {
    const int n = int(names.size());
    RatingFit fit;
    fit.players.resize(names.size());
    for (int i = 0; i < n; ++i) fit.players[std::size_t(i)].name = names[std::size_t(i)];
    if (options.anchor >= n) throw std::invalid_argument("ratings: the anchor is not a player");
    std::map<std::pair<int, int>, Cell> cells;
    double draws = 0, total = 0;
    for (const auto& g : games) {
        if (g.first < 0 || g.first >= n || g.second < 0 || g.second >= n)
            throw std::invalid_argument("ratings: a game names an unknown player");
        if (g.first == g.second)
            throw std::invalid_argument("ratings: " + names[std::size_t(g.first)] + " played itself");
        if (g.score != 0 && g.score != 0.5 && g.score != 1)
            throw std::invalid_argument("ratings: a game's score must be 0, 1/2 or 1");
        if (g.count < 1) throw std::invalid_argument("ratings: a game's count must be at least 1");
        auto& c = cells[{g.first, g.second}];
        c.first = g.first, c.second = g.second;
        (g.score == 1 ? c.w : g.score == 0 ? c.l : c.d) += double(g.count);
        total += double(g.count);
        draws += g.score == 0.5 ? double(g.count) : 0;
        for (int side : {0, 1}) {
            auto& p = fit.players[std::size_t(side ? g.second : g.first)];
            p.games += g.count;
            p.score += double(g.count) * (side ? 1 - g.score : g.score);
        }
    }
    if (n < 2 || games.empty()) return fit;

    Problem prob;
    prob.n = n;
    for (auto& [key, c] : cells) prob.cells.push_back(c);
    prob.priorVar = options.priorElo > 0 ? options.priorElo * options.priorElo : 0;
    prob.fitAdvantage = options.fitAdvantage;
    // Start: equal ratings, no advantage, drawElo matching the draw rate at equal strength.
    std::vector<double> p(std::size_t(prob.size()), 0);
    double drawRate = std::clamp(draws / total, 0.01, 0.98);
    p[std::size_t(n)] = std::log10((1 + drawRate) / (1 - drawRate)) * 400 / 2 + 1;
    std::vector<double> grad, step;
    double current = prob.value(p, &grad);
    // Damped Newton steps with backtracking, until no step improves the objective.
    for (fit.iterations = 0; fit.iterations < 200; ++fit.iterations) {
        auto info = prob.hessian(p);
        for (auto& row : info)
            for (auto& v : row) v = -v;  // the information: positive definite near the optimum
        // drawElo at its bound with the likelihood pulling it further down (no draws at all, or fewer than
        // any positive drawElo predicts): hold it there and take the Newton step in the ratings alone. A
        // full step would mostly push drawElo below the bound, the clamp would undo that part, and the line
        // search would stop the ratings far short of their maximum.
        const bool drawAtBound = p[std::size_t(n)] <= DrawEloFloor * 2 && grad[std::size_t(n)] < 0;
        if (drawAtBound) holdFixed(info, grad, std::size_t(n));
        bool improved = false;
        for (double damping = 0; damping < 1e9 && !improved; damping = damping == 0 ? 1e-6 : damping * 10) {
            auto a = info;
            for (std::size_t i = 0; i < a.size(); ++i) a[i][i] += damping;
            if (!solve(a, grad, step)) continue;
            for (double t = 1; t > 1e-6 && !improved; t /= 2) {
                auto q = p;
                for (std::size_t i = 0; i < q.size(); ++i) q[i] += t * step[i];
                q[std::size_t(n)] = std::max(q[std::size_t(n)], DrawEloFloor);  // drawElo stays positive
                std::vector<double> gq;
                double v = prob.value(q, &gq);
                if (std::isfinite(v) && v > current) {
                    p = q, grad = gq, current = v;
                    improved = true;
                }
            }
        }
        double norm = 0;
        for (std::size_t i = 0; i < grad.size(); ++i)
            if (!(i == std::size_t(n) && p[i] <= DrawEloFloor * 2 && grad[i] < 0))
                norm = std::max(norm, std::abs(grad[i]));
        if (!improved || norm < 1e-10) break;
    }
    prob.value(p, nullptr, &fit.logLikelihood);
    fit.advantage = options.fitAdvantage ? p[std::size_t(n - 1)] : 0;
    fit.drawElo = p[std::size_t(n)];

    // Covariance of (r_1..r_{n-1}, adv, drawElo) with r_0 = 0, then of each rating minus the anchor.
    auto info = prob.hessian(p);
    for (auto& row : info)
        for (auto& v : row) v = -v;
    // A drawElo at its bound is not a free parameter: the intervals are those of the fit with it fixed.
    {
        std::vector<double> g;
        prob.value(p, &g);
        if (p[std::size_t(n)] <= DrawEloFloor * 2 && g[std::size_t(n)] < 0)
            holdFixed(info, g, std::size_t(n));
    }
    auto cov = inverse(info);
    auto covR = [&](int i, int j) {
        return i == 0 || j == 0 ? 0.0 : cov[std::size_t(i - 1)][std::size_t(j - 1)];
    };
    // anchor value: the mean of all ratings, or one player's rating; each reported e_i = r_i - anchor.
    std::vector<double> weight(std::size_t(n), options.anchor < 0 ? 1.0 / n : 0.0);
    if (options.anchor >= 0) weight[std::size_t(options.anchor)] = 1;
    double anchorValue = 0;
    for (int i = 0; i < n; ++i) anchorValue += weight[std::size_t(i)] * prob.rating(p, i);
    const double z = normalQuantile(0.5 + options.confidence / 2);
    for (int i = 0; i < n; ++i) {
        // Var(r_i - sum w_k r_k) = Var(r_i) - 2 sum w_k Cov(r_i, r_k) + sum w_k w_l Cov(r_k, r_l).
        double var = covR(i, i);
        for (int k = 0; k < n; ++k) var -= 2 * weight[std::size_t(k)] * covR(i, k);
        for (int k = 0; k < n; ++k)
            for (int l = 0; l < n; ++l) var += weight[std::size_t(k)] * weight[std::size_t(l)] * covR(k, l);
        auto& pl = fit.players[std::size_t(i)];
        pl.elo = prob.rating(p, i) - anchorValue + options.anchorElo;
        double half = z * std::sqrt(std::max(var, 0.0));
        pl.low = pl.elo - half;
        pl.high = pl.elo + half;
    }
    return fit;
}

}  // namespace xq::stats
