// `xq-tuner nnue` as a user runs it: it lowers the validation loss on a small data set, writes a network the
// engine reads, resumes from a checkpoint to the network an uninterrupted run writes, and refuses bad
// options, data and checkpoints with messages that name them (skipped when xq-tuner is not built).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "nnue_file.h"
#include "nnue_test_util.h"
#include "oracle.h"

namespace xq::tuner::nnue {
namespace {

const std::string Tuner = std::string(XQ_BIN_DIR) + "/xq-tuner";
const std::string Engine = std::string(XQ_BIN_DIR) + "/xq-engine";

struct CliRun {
    int code = -1;
    std::string out, err;
};

CliRun runCommand(const test::TempDir& dir, const std::string& command) {
    const std::string errPath = dir.file("stderr.txt");
    CliRun r;
    FILE* p = popen((command + " 2>" + errPath).c_str(), "r");
    if (!p) return r;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
    const int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(errPath);
    r.err.assign(std::istreambuf_iterator<char>(in), {});
    return r;
}

CliRun run(const test::TempDir& dir, const std::string& args) {
    return runCommand(dir, Tuner + " nnue " + args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Playouts scored by the hand-written evaluation (results: its sign); every fifth line without a score.
std::string writeData(const test::TempDir& dir, const std::string& name, int count, std::uint64_t seed) {
    DataWriter w(dir.file(name));
    for (const LabeledPosition& lp : tuner::test::randomPositions(count, seed)) {
        LabeledPosition p = lp;
        const int score = std::clamp(eval::evaluate(Position(p.fen)), -3000, 3000);
        p.result = score > 150 ? 1.0f : score < -150 ? 0.0f : 0.5f;
        if (w.count() % 5) p.score = score;
        w.write(p);
    }
    w.close();
    return dir.file(name);
}

std::vector<std::string> networksIn(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.path().extension() == ".nnue") out.push_back(e.path().string());
    return out;
}

nlohmann::json report(const CliRun& r) {
    try {
        return nlohmann::json::parse(r.out);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not JSON on stdout: " << e.what() << "\n" << r.out;
        return nlohmann::json::object();
    }
}

const std::string Small = " --hidden 32 --batch 128 --threads 2 --progress-seconds 1000";

TEST(NnueCliTest, LowersTheValidationLossAndWritesANetworkTheEngineReads) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "data.txt.gz", 1200, 1);
    // --out names a directory that does not exist yet: it is made, and the file named by its hash.
    const CliRun r = run(dir, data + " --out " + dir.file("nets") + Small + " --epochs 4 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "1200 positions from 1 files")) << r.err;
    EXPECT_TRUE(contains(r.err, "960 with a score, 240 without")) << r.err;
    EXPECT_TRUE(contains(r.err, "epoch 0/4  validation")) << r.err;
    EXPECT_TRUE(contains(r.err, "epoch 4/4  train")) << r.err;
    EXPECT_TRUE(contains(r.err, "pos/s")) << r.err;
    EXPECT_TRUE(contains(r.err, "ETA 0:00:00")) << r.err;

    const nlohmann::json j = report(r);
    EXPECT_EQ(j["positions"], 1200);
    EXPECT_EQ(j["positions_with_score"], 960);
    EXPECT_EQ(j["train_positions"], 1140);
    EXPECT_EQ(j["validation_positions"], 60);
    EXPECT_EQ(j["validation_split"], "shuffle");
    EXPECT_EQ(j["epochs"], 4);
    EXPECT_EQ(j["resumed_from_epoch"], 0);
    EXPECT_GT(j["positions_per_second"].get<double>(), 0);
    ASSERT_EQ(j["loss_curve"].size(), 4u);
    for (int e = 0; e < 4; ++e) {
        EXPECT_EQ(j["loss_curve"][e]["epoch"], e + 1);
        EXPECT_GT(j["loss_curve"][e]["positions_per_second"].get<double>(), 0);
    }
    // The loss falls: a 32-unit network learns a good part of the hand-written evaluation in 4 epochs.
    const double start = j["start_validation_loss"], end = j["loss_curve"][3]["validation_loss"];
    EXPECT_LT(end, 0.8 * start) << "validation loss " << start << " -> " << end;
    EXPECT_LT(j["loss_curve"][3]["train_loss"].get<double>(), j["loss_curve"][0]["train_loss"].get<double>());
    EXPECT_EQ(j["final_validation_loss_float"].get<double>(), end);
    EXPECT_LT(j["final_validation_loss_quantised"].get<double>(), 0.9 * start);

    const std::vector<std::string> nets = networksIn(dir.file("nets"));
    ASSERT_EQ(nets.size(), 1u);
    EXPECT_EQ(j["network"], nets[0]);
    EXPECT_EQ(j["name"], std::filesystem::path(nets[0]).filename().string());
    EXPECT_EQ(j["bytes"], std::filesystem::file_size(nets[0]));
    EXPECT_EQ(j["bytes"], HEADER_BYTES + 2 * (INPUTS * 32 + 32 + 2 * 32) + 4);
    const QuantisedNet net = readNetFile(nets[0]);
    EXPECT_EQ(net.hidden, 32);
    EXPECT_TRUE(contains(net.description, "1200 positions, 4 epochs, lambda 0.50, val loss"))
        << net.description;

    // The engine reads it: the same name (its SHA-256), the architecture, the description.
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Engine), "no xq-engine at " << Engine);
    const CliRun info = runCommand(dir, Engine + " nnue info " + nets[0]);
    ASSERT_EQ(info.code, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "name:            " + j["name"].get<std::string>())) << info.out;
    EXPECT_TRUE(contains(info.out, "(1260 -> 32) x 2 -> 1")) << info.out;
    EXPECT_TRUE(contains(info.out, net.description)) << info.out;
}

TEST(NnueCliTest, ResumesFromACheckpointToTheSameNetwork) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "data.txt", 600, 2);
    // A constant learning rate: extending a run with --epochs keeps the schedule an uninterrupted run has.
    const std::string args = data + Small + " --lr-final-ratio 1";
    CliRun r = run(dir, args + " --epochs 3 --out " + dir.file("straight"));
    ASSERT_EQ(r.code, 0) << r.err;
    const std::vector<std::string> straight = networksIn(dir.file("straight"));
    ASSERT_EQ(straight.size(), 1u);
    EXPECT_TRUE(contains(r.out, "wrote " + straight[0])) << r.out;

    const std::string checkpoint = dir.file("ck/run.ckpt");
    r = run(dir, args + " --epochs 1 --out " + dir.file("first") + " --checkpoint " + checkpoint);
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_TRUE(std::filesystem::exists(checkpoint));
    r = run(dir,
            args + " --epochs 3 --out " + dir.file("resumed") + " --checkpoint " + checkpoint + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "resumed " + checkpoint + " after epoch 1 of 3")) << r.err;
    nlohmann::json j = report(r);
    EXPECT_EQ(j["resumed_from_epoch"], 1);
    EXPECT_EQ(j["loss_curve"].size(), 3u);  // the checkpoint's epoch and this run's two
    EXPECT_EQ(j["start_validation_loss"], j["loss_curve"][0]["validation_loss"]);
    const std::vector<std::string> resumed = networksIn(dir.file("resumed"));
    ASSERT_EQ(resumed.size(), 1u);
    EXPECT_EQ(std::filesystem::path(resumed[0]).filename(), std::filesystem::path(straight[0]).filename());

    // A finished checkpoint trains no more: the same network again.
    r = run(dir,
            data + " --threads 2 --out " + dir.file("again") + " --checkpoint " + checkpoint + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    j = report(r);
    EXPECT_EQ(j["resumed_from_epoch"], 3);
    EXPECT_EQ(j["epochs"], 3);
    EXPECT_EQ(j["positions_per_second"], nullptr);  // nothing trained
    EXPECT_EQ(j["name"], std::filesystem::path(straight[0]).filename().string());
}

TEST(NnueCliTest, ValidatesOnAFileOfItsOwn) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "train.txt", 500, 3),
                      validation = writeData(dir, "val.txt.gz", 120, 4);
    const std::string checkpoint = dir.file("run.ckpt");
    CliRun r = run(dir, data + Small + " --epochs 2 --validation " + validation + " --out " +
                            dir.file("net.nnue") + " --checkpoint " + checkpoint + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = report(r);
    EXPECT_EQ(j["train_positions"], 500);
    EXPECT_EQ(j["validation_positions"], 120);
    EXPECT_EQ(j["validation_split"], "file");
    EXPECT_EQ(j["validation_files"], nlohmann::json::array({validation}));
    EXPECT_EQ(j["network"], dir.file("net.nnue"));  // --out FILE.nnue: that name
    EXPECT_TRUE(std::filesystem::exists(dir.file("net.nnue")));

    // The checkpoint wants the same validation file back.
    r = run(dir, data + " --out " + dir.file("b") + " --checkpoint " + checkpoint);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "the checkpoint validated on a file of 120 positions")) << r.err;
    // Training data is not validation data.
    r = run(dir, data + " --out " + dir.file("b") + " --validation " + data);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "train.txt is both training data and --validation data")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("b")));
}

TEST(NnueCliTest, ResumeRefusesOtherDataOtherHyperParametersAndADamagedCheckpoint) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "a.txt", 300, 2), other = writeData(dir, "b.txt", 300, 3);
    const std::string checkpoint = dir.file("run.ckpt");
    CliRun r = run(dir, data + " --out " + dir.file("a") + Small + " --epochs 1 --checkpoint " + checkpoint);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto saved = std::filesystem::last_write_time(checkpoint);

    r = run(dir, other + " --out " + dir.file("b") + " --checkpoint " + checkpoint);
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, checkpoint + ": trained on other data")) << r.err;
    r = run(dir, data + " --out " + dir.file("b") + " --lambda 0.7 --checkpoint " + checkpoint);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--lambda 0.7 differs from the checkpoint's 0.5")) << r.err;
    r = run(dir, data + " --out " + dir.file("b") + " --hidden 64 --checkpoint " + checkpoint);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--hidden 64 differs from the checkpoint's 32")) << r.err;
    r = run(dir, data + " --out " + dir.file("b") + " --validation 0.2 --checkpoint " + checkpoint);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--validation 0.2 differs from the checkpoint's 0.05")) << r.err;
    EXPECT_EQ(std::filesystem::last_write_time(checkpoint), saved);

    std::string bytes;
    {
        std::ifstream in(checkpoint, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    bytes[bytes.size() / 2] ^= 1;
    std::ofstream(dir.file("damaged.ckpt"), std::ios::binary) << bytes;
    r = run(dir, data + " --out " + dir.file("b") + " --checkpoint " + dir.file("damaged.ckpt"));
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "damaged.ckpt: damaged (the hash does not match)")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("b")));
}

TEST(NnueCliTest, InitStartsFromANetworkFileAndItsLossIsTheFilesOwn) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "data.txt.gz", 1200, 6);
    CliRun r = run(dir, data + " --out " + dir.file("a") + Small + " --epochs 3 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json trained = report(r);
    EXPECT_EQ(trained["init"], nullptr);
    const std::string netA = trained["network"];
    const QuantisedNet a = readNetFile(netA);

    // The file's own loss on the same validation positions (the same data and seed: the same split), as the
    // integer inference evaluates it.
    const NnueData positions = readNnueData({data}, 1);
    const Split split = splitData(positions.size(), 0.05, 1);
    const double fileLoss = quantisedLoss(a, positions, split.validation, LossSpec{}, 1);
    EXPECT_NEAR(trained["final_validation_loss_quantised"].get<double>(), fileLoss, 1e-12);

    // Warm start, H taken from the file (no --hidden), a learning rate too small to move a weight by a
    // quantum: the start loss is the file's (up to its integer truncations), and so are the weights written.
    const std::string tiny = " --batch 128 --threads 2 --progress-seconds 1000 --epochs 1 --lr 1e-9";
    r = run(dir, data + " --init " + netA + tiny + " --out " + dir.file("b") + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "(the --init network " + a.name + ")")) << r.err;
    const nlohmann::json warm = report(r);
    EXPECT_EQ(warm["init"], a.name);
    EXPECT_EQ(warm["init_file"], netA);
    EXPECT_EQ(warm["hidden"], 32);
    EXPECT_NEAR(warm["start_validation_loss"].get<double>(), fileLoss, 2e-4);
    EXPECT_NEAR(warm["final_validation_loss_quantised"].get<double>(), fileLoss, 1e-12);
    const QuantisedNet b = readNetFile(warm["network"]);
    EXPECT_TRUE(b.w1 == a.w1 && b.b1 == a.b1 && b.w2 == a.w2 && b.b2 == a.b2);
    // A random start is far from it.
    EXPECT_GT(trained["start_validation_loss"].get<double>(), 1.5 * fileLoss);
}

TEST(NnueCliTest, InitRefusesAnotherHiddenSizeAGarbageFileAndAnotherStartOnResume) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Engine), "no xq-engine at " << Engine);
    test::TempDir dir;
    const std::string data = writeData(dir, "data.txt", 400, 7);
    const std::string net32 = dir.file("r32.nnue"), other32 = dir.file("o32.nnue");
    ASSERT_EQ(runCommand(dir, Engine + " nnue random " + net32 + " 32 1").code, 0);
    ASSERT_EQ(runCommand(dir, Engine + " nnue random " + other32 + " 32 2").code, 0);
    const std::string nameOf32 = readNetFile(net32).name;

    CliRun r = run(dir, data + " --init " + net32 + " --hidden 64 --out " + dir.file("x"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "--hidden 64 differs from --init " + net32 + "'s H = 32")) << r.err;
    std::ofstream(dir.file("garbage.nnue")) << "not a network at all\n";
    r = run(dir, data + " --init " + dir.file("garbage.nnue") + " --out " + dir.file("x"));
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(contains(r.err, "network file '" + dir.file("garbage.nnue") + "': ")) << r.err;
    r = run(dir, data + " --init " + dir.file("none.nnue") + " --out " + dir.file("x"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "none.nnue")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("x")));

    // The checkpoint records the start network: resuming names it, another --init is refused, and a
    // checkpoint of a random start refuses any --init.
    const std::string checkpoint = dir.file("run.ckpt");
    r = run(dir, data + " --init " + net32 + Small + " --epochs 1 --out " + dir.file("c") + " --checkpoint " +
                     checkpoint);
    ASSERT_EQ(r.code, 0) << r.err;
    r = run(dir, data + " --init " + other32 + " --epochs 2 --out " + dir.file("d") + " --checkpoint " +
                     checkpoint);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "is not the network the checkpoint started from (" + nameOf32 + ")"))
        << r.err;
    r = run(dir, data + " --epochs 2 --threads 2 --out " + dir.file("d") + " --checkpoint " + checkpoint +
                     " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(report(r)["init"], nameOf32);
    EXPECT_EQ(report(r)["resumed_from_epoch"], 1);

    const std::string randomStart = dir.file("random.ckpt");
    r = run(dir, data + Small + " --epochs 1 --out " + dir.file("e") + " --checkpoint " + randomStart);
    ASSERT_EQ(r.code, 0) << r.err;
    r = run(dir, data + " --init " + net32 + " --out " + dir.file("e") + " --checkpoint " + randomStart);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "started from (random weights)")) << r.err;
}

TEST(NnueCliTest, DedupKeepsTheFirstOfRepeatedPositionsAndCountsTheRest) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    // Two generations' files of a run's window: the second repeats 100 of the first's lines.
    const std::string first = writeData(dir, "g1.txt", 400, 8), second = dir.file("g2.txt.gz");
    {
        std::ifstream in(first);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        ASSERT_EQ(lines.size(), 400u);
        std::ifstream fresh(writeData(dir, "fresh.txt", 200, 9));
        DataWriter w(second);
        std::size_t repeated = 0;
        for (std::string line; std::getline(fresh, line);) {
            LabeledPosition p;
            ASSERT_TRUE(parseDataLine(line, p));
            w.write(p);
            if (repeated < 100) {  // every other line of the first file, between the new ones
                ASSERT_TRUE(parseDataLine(lines[2 * repeated++], p));
                w.write(p);
            }
        }
    }
    CliRun r = run(dir, first + " " + second + Small + " --epochs 1 --out " + dir.file("a") + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    nlohmann::json j = report(r);
    EXPECT_EQ(j["positions"], 700);
    EXPECT_EQ(j["dedup"], false);
    EXPECT_EQ(j["duplicates"], 0);

    r = run(dir, first + " " + second + Small + " --epochs 1 --out " + dir.file("b") + " --json --dedup");
    ASSERT_EQ(r.code, 0) << r.err;
    j = report(r);
    EXPECT_EQ(j["dedup"], true);
    EXPECT_EQ(j["duplicates"], 100);
    EXPECT_EQ(j["positions"], 600);
    EXPECT_TRUE(contains(r.err, "g1.txt (400 positions so far, 0 repeats dropped)")) << r.err;
    EXPECT_TRUE(contains(r.err, "g2.txt.gz (600 positions so far, 100 repeats dropped)")) << r.err;
    EXPECT_TRUE(contains(r.err, "600 positions from 2 files")) << r.err;
    EXPECT_TRUE(contains(r.err, "100 repeated positions dropped (--dedup)")) << r.err;
}

TEST(NnueCliTest, BadOptionsAndBadDataAreClearErrors) {
    XQ_REQUIRE_ORACLE(std::filesystem::exists(Tuner), "no xq-tuner at " << Tuner);
    test::TempDir dir;
    const std::string data = writeData(dir, "good.txt", 50, 5), out = " --out " + dir.file("x");
    struct Case {
        std::string args, message;
        int code;
    };
    std::ofstream(dir.file("bad.txt")) << Position::StartFEN << " ; 1.0 ; 12\n"
                                       << "\n"
                                       << Position::StartFEN << " ; 2.0\n";
    std::ofstream(dir.file("score.txt")) << Position::StartFEN << " ; 1.0 ; 12\n"
                                         << Position::StartFEN << " ; 1.0 ; much\n";
    {
        // gzip: the line number counts the file's lines too.
        gzFile gz = gzopen(dir.file("bad.txt.gz").c_str(), "wb");
        ASSERT_NE(gz, nullptr);
        const std::string text = std::string(Position::StartFEN) + " ; 0.5\nnot a fen ; 1.0\n";
        ASSERT_EQ(gzwrite(gz, text.data(), unsigned(text.size())), int(text.size()));
        ASSERT_EQ(gzclose(gz), Z_OK);
    }
    const std::vector<Case> cases = {
        {dir.file("none.txt.gz") + out, "none.txt.gz: no such file or directory", 1},
        {dir.file("bad.txt") + out, "bad.txt:3: bad result '2.0'", 1},
        {dir.file("score.txt") + out, "score.txt:2: bad score 'much'", 1},
        {dir.file("bad.txt.gz") + out, "bad.txt.gz:2: bad FEN", 1},
        {data + " --out " + data, "good.txt is not a directory", 1},
        {data + out + " --hidden 40", "--hidden: 40 is not in [16, 2048], a multiple of 16", 2},
        {data + out + " --hidden many", "--hidden: 'many' is not a whole number", 2},
        {data + out + " --lambda 1.5", "--lambda: 1.5 is not in [0, 1]", 2},
        {data + out + " --lr nan", "--lr: 'nan' is not a number", 2},
        {data + out + " --validation 0.95", "--validation: 0.95 is not a fraction from 0 to 0.9", 2},
        {data + out + " --validation nothing.txt",
         "nothing.txt: not a fraction, and no such file or directory", 2},
        {data + out + " --threads -1", "--threads: -1 is not in [0, 1024]", 2},
        {data + out + " --validation-split games", "--validation-split: games not in {shuffle,tail}", 2},
        {data, "--out is required", 2},
        {out.substr(1), "--data is required", 2},
    };
    for (const Case& c : cases) {
        const CliRun r = run(dir, c.args);
        EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
        EXPECT_TRUE(contains(r.err, c.message)) << c.args << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << c.args << "\n" << r.out;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("x")));
}

}  // namespace
}  // namespace xq::tuner::nnue
