// xq-runner-floor: the least a match runner of `xq match`'s design costs on this machine, to set its
// measured overhead against (scripts/bench-runner-overhead.sh runs both in one sitting). Like `xq match
// --concurrency 2` without clocks it plays two games at once, a thread each (SCHED_BATCH), each thread
// alternating two engine processes over pipes, and writes `position ... moves ...` and `go nodes N` in one
// write. Unlike it, it does nothing else: one blocking read at a time until `bestmove`, no rules (the move
// is not checked, the game's end not looked for), no clocks, no info lines read, no adjudication, no
// timeouts, no report. A game ends when an engine has no move or after PLIES plies.
//
// usage: xq-runner-floor ENGINE BOOK NODES GAMES PLIES
//   BOOK: an opening per line, `FEN [moves ...]` or `startpos [moves ...]` (data/openings/*.epd); the
//   first GAMES/2 lines, each played twice. Prints the figures `xq match --json` gives for the same
//   measurement: runner_cpu_seconds, engines_cpu_seconds, plies, runner_wakeups, games.
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

class Engine {
  public:
    explicit Engine(const std::string& path) {
        int toEngine[2], fromEngine[2];
        if (::pipe(toEngine) != 0 || ::pipe(fromEngine) != 0) throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, toEngine[0], 0);
        posix_spawn_file_actions_adddup2(&actions, fromEngine[1], 1);
        posix_spawn_file_actions_addclose(&actions, toEngine[1]);
        posix_spawn_file_actions_addclose(&actions, fromEngine[0]);
        // Engines get the normal policy, as xq match starts them.
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sched_param normal{};
        posix_spawnattr_setschedpolicy(&attr, SCHED_OTHER);
        posix_spawnattr_setschedparam(&attr, &normal);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER);
        std::vector<char> program(path.begin(), path.end());
        program.push_back('\0');
        char* argv[] = {program.data(), nullptr};
        const int failed = ::posix_spawn(&pid_, path.c_str(), &actions, &attr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(toEngine[0]);
        ::close(fromEngine[1]);
        in_ = toEngine[1];
        out_ = fromEngine[0];
        if (failed) throw std::runtime_error("cannot run " + path + ": " + std::strerror(failed));
    }
    ~Engine() {
        [[maybe_unused]] const ssize_t ignored = ::write(in_, "quit\n", 5);
        ::close(in_);
        ::close(out_);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void say(const std::string& text) {
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
            if (n <= 0) throw std::runtime_error("the engine stopped reading");
            done += std::size_t(n);
        }
    }

    // The first line that starts with `word`; the lines before it are dropped.
    std::string waitFor(const char* word) {
        const std::size_t length = std::strlen(word);
        while (true) {
            for (std::size_t nl; (nl = buffer_.find('\n', head_)) != std::string::npos;) {
                const std::size_t start = head_;
                head_ = nl + 1;
                if (buffer_.compare(start, length, word) == 0) {
                    std::string line = buffer_.substr(start, nl - start);
                    buffer_.erase(0, head_);
                    head_ = 0;
                    return line;
                }
            }
            char chunk[65536];
            const ssize_t n = ::read(out_, chunk, sizeof chunk);
            if (n <= 0) throw std::runtime_error("the engine closed its output");
            buffer_.append(chunk, std::size_t(n));
        }
    }

  private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
    std::size_t head_ = 0;
};

struct Settings {
    std::string engine;
    std::vector<std::string> positions;  // "position fen ... moves ..." without the played moves' tail
    long nodes = 0;
    int games = 0, plies = 0;
};

// The opening's position command, ending in " moves" with its book moves, so that played moves append.
std::string positionCommand(std::string line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    std::string moves;
    if (const auto at = line.find(" moves "); at != std::string::npos) {
        moves = line.substr(at + 6);
        line.erase(at);
    }
    const std::string head = line.rfind("startpos", 0) == 0 ? "position startpos" : "position fen " + line;
    return head + " moves" + moves;
}

std::atomic<long> plies{0};

void playGames(const Settings& s, int slot, int slots) {
    sched_param batch{};
    ::pthread_setschedparam(::pthread_self(), SCHED_BATCH, &batch);
    Engine engines[2] = {Engine(s.engine), Engine(s.engine)};
    for (Engine& e : engines) {
        e.say("uci\n");
        e.waitFor("uciok");
        e.say("isready\n");
        e.waitFor("readyok");
    }
    const std::string go = "\ngo nodes " + std::to_string(s.nodes) + "\n";
    for (int game = slot; game < s.games; game += slots) {
        std::string position = s.positions[std::size_t(game / 2) % s.positions.size()];
        for (Engine& e : engines) {
            e.say("ucinewgame\nisready\n");
            e.waitFor("readyok");
        }
        for (int ply = 0; ply < s.plies; ++ply) {
            Engine& e = engines[(ply + game) % 2];
            e.say(position + go);
            const std::string line = e.waitFor("bestmove");
            const std::string move = line.substr(9, line.find(' ', 9) - 9);
            ++plies;
            if (move.empty() || move == "(none)" || move == "0000") break;
            position += " " + move;
        }
    }
}

double seconds(const rusage& r) {
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           1e-6 * double(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: xq-runner-floor ENGINE BOOK NODES GAMES PLIES\n");
        return 2;
    }
    Settings s;
    s.engine = argv[1];
    s.nodes = std::atol(argv[3]);
    s.games = std::atoi(argv[4]);
    s.plies = std::atoi(argv[5]);
    if (s.nodes < 1 || s.games < 1 || s.plies < 1) {
        std::fprintf(stderr, "xq-runner-floor: NODES, GAMES and PLIES must be whole numbers above 0\n");
        return 2;
    }
    std::ifstream book(argv[2]);
    if (!book) {
        std::fprintf(stderr, "xq-runner-floor: cannot read the book '%s'\n", argv[2]);
        return 2;
    }
    for (std::string line; std::getline(book, line) && int(s.positions.size()) < (s.games + 1) / 2;)
        if (line.find_first_not_of(" \t\r") != std::string::npos && line[0] != '#')
            s.positions.push_back(positionCommand(line));
    if (s.positions.empty()) {
        std::fprintf(stderr, "xq-runner-floor: no opening in '%s'\n", argv[2]);
        return 2;
    }
    std::string errors[2];
    auto slot = [&s, &errors](int index) {
        try {
            playGames(s, index, 2);
        } catch (const std::exception& e) {
            errors[index] = e.what();
        }
    };
    std::thread other(slot, 1);
    slot(0);
    other.join();
    for (const std::string& error : errors)
        if (!error.empty()) {
            std::fprintf(stderr, "xq-runner-floor: %s\n", error.c_str());
            return 1;
        }
    rusage self{}, engines{};
    ::getrusage(RUSAGE_SELF, &self);
    ::getrusage(RUSAGE_CHILDREN, &engines);
    std::printf(
        "{\n  \"games\": %d,\n  \"plies\": %ld,\n  \"runner_cpu_seconds\": %.6f,\n"
        "  \"engines_cpu_seconds\": %.6f,\n  \"runner_wakeups\": %ld\n}\n",
        s.games, plies.load(), seconds(self), seconds(engines), self.ru_nvcsw + self.ru_nivcsw);
    return 0;
}
