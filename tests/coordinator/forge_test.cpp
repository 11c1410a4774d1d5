// coordinator/common/forge.h: which repository URLs get links to their commits, and what the links are.
#include "forge.h"

#include <gtest/gtest.h>

#include <tuple>

#include "test_report.h"
#include "web_pages.h"

namespace forge_test {

using xq::coord::forgeCommitUrl;
using xq::coord::forgeWebUrl;

const std::string Commit = "0123456789abcdef0123456789abcdef01234567";

TEST(Forge, EveryFormOfAGithubUrlLinksTheSameCommitPage) {
    for (const char* url : {"https://github.com/owner/engine", "https://github.com/owner/engine.git",
                            "https://github.com/owner/engine/", "git@github.com:owner/engine.git",
                            "ssh://git@github.com/owner/engine.git", "https://user@GitHub.com/owner/engine"})
        EXPECT_EQ(forgeCommitUrl(url, Commit), "https://github.com/owner/engine/commit/" + Commit) << url;
}

TEST(Forge, EachKnownForgeHasItsOwnCommitPath) {
    EXPECT_EQ(forgeCommitUrl("https://gitlab.com/group/sub/engine.git", Commit),
              "https://gitlab.com/group/sub/engine/-/commit/" + Commit);
    EXPECT_EQ(forgeCommitUrl("https://codeberg.org/o/e", Commit),
              "https://codeberg.org/o/e/commit/" + Commit);
    EXPECT_EQ(forgeCommitUrl("git@bitbucket.org:o/e.git", Commit),
              "https://bitbucket.org/o/e/commits/" + Commit);
    EXPECT_EQ(forgeCommitUrl("https://git.sr.ht/~o/e", Commit), "https://git.sr.ht/~o/e/commit/" + Commit);
    EXPECT_EQ(forgeWebUrl("git@github.com:o/e.git"), "https://github.com/o/e");
}

TEST(Forge, UnknownHostsLocalPathsAndOddPathsGetNoLink) {
    for (const char* url : {"/home/dev/engine", ".", "https://git.example.org/o/e", "file:///srv/engine.git",
                            "https://github.com/owner", "https://github.com/a/b/c",
                            "https://github.com/o/e\"x", "https://github.com/o/..", ""})
        EXPECT_EQ(forgeCommitUrl(url, Commit), "") << url;
    EXPECT_EQ(forgeCommitUrl("https://github.com/o/e", "not-a-hash"), "");
    EXPECT_EQ(forgeCommitUrl("https://github.com/o/e", "abc"), "") << "too short to be a commit";
}

}  // namespace forge_test

namespace forge_test {

// A test from a repository on a known forge: its page names the repository and links both commits, with
// their authors and the refs they were named by; `xq show --json` has the same.
TEST(Forge, ATestsPageLinksItsCommitsAndNamesTheirAuthorsAndRefs) {
    xq::coord::web::TestPageData d;
    d.view.mutable_summary()->set_id(3);
    d.view.mutable_summary()->set_state(xq::v1::TEST_STATE_RUNNING);
    auto* m = d.view.mutable_spec()->mutable_match();
    for (auto [e, ref, sha] : {std::tuple{m->mutable_base(), "origin/main", Commit},
                               std::tuple{m->mutable_dev(), "HEAD", std::string(40, 'b')}}) {
        e->set_name(ref == std::string("HEAD") ? "dev" : "base");
        auto* src = e->mutable_source();
        src->set_commit(sha);
        src->set_subject("a subject <b>");
        src->set_author("Dev <dev@example.com>");
        src->set_ref(ref);
        src->set_repository("git@github.com:owner/engine.git");
        src->set_build_command("make");
    }
    std::string page = xq::coord::web::testPage({}, d);
    EXPECT_NE(page.find("href=\"https://github.com/owner/engine/commit/" + Commit + "\""), std::string::npos);
    EXPECT_NE(page.find("href=\"https://github.com/owner/engine/commit/" + std::string(40, 'b') + "\""),
              std::string::npos);
    EXPECT_NE(page.find("href=\"https://github.com/owner/engine\""), std::string::npos) << "the repository";
    EXPECT_NE(page.find("by Dev &lt;dev@example.com&gt;"), std::string::npos);
    EXPECT_NE(page.find("ref <code>origin/main</code>"), std::string::npos);
    EXPECT_EQ(page.find("<b>"), std::string::npos) << "the subject is escaped";
    auto json = xq::coord::testViewObject(d.view);
    EXPECT_EQ(json["dev"]["source"]["link"],
              "https://github.com/owner/engine/commit/" + std::string(40, 'b'));
    EXPECT_EQ(json["dev"]["source"]["author"], "Dev <dev@example.com>");
    EXPECT_EQ(json["base"]["source"]["ref"], "origin/main");
    EXPECT_NE(xq::coord::testViewText(d.view).find("by Dev <dev@example.com>, ref HEAD"), std::string::npos);
}

}  // namespace forge_test
