#include "sql_dialect.h"

#include <cctype>
#include <vector>

namespace xq::coord {

namespace {

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// The statement as tokens: words, quoted strings, parameters, and runs of anything else.
struct Token {
    enum Kind { Word, Quoted, Param, Other } kind;
    std::string text;
};

std::vector<Token> tokenize(std::string_view sql) {
    std::vector<Token> out;
    for (std::size_t i = 0; i < sql.size();) {
        char c = sql[i];
        std::size_t j = i + 1;
        Token::Kind kind = Token::Other;
        if (c == '\'' || c == '"') {
            kind = Token::Quoted;
            while (j < sql.size()) {
                if (sql[j] == c) {
                    if (j + 1 < sql.size() && sql[j + 1] == c) {
                        j += 2;  // a doubled quote inside the string
                        continue;
                    }
                    ++j;
                    break;
                }
                ++j;
            }
        } else if (c == '?') {
            kind = Token::Param;
            while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j]))) ++j;
        } else if (isWordChar(c)) {
            kind = Token::Word;
            while (j < sql.size() && isWordChar(sql[j])) ++j;
        } else {
            while (j < sql.size() && !isWordChar(sql[j]) && sql[j] != '?' && sql[j] != '\'' && sql[j] != '"')
                ++j;
        }
        out.push_back({kind, std::string(sql.substr(i, j - i))});
        i = j;
    }
    return out;
}

// The index of the next word token after `i`, skipping whitespace only (or tokens.size()).
std::size_t nextWord(const std::vector<Token>& tokens, std::size_t i) {
    for (std::size_t k = i + 1; k < tokens.size(); ++k) {
        if (tokens[k].kind == Token::Word) return k;
        if (tokens[k].kind != Token::Other ||
            tokens[k].text.find_first_not_of(" \t\r\n") != std::string::npos)
            return tokens.size();
    }
    return tokens.size();
}

}  // namespace

std::string toPostgres(std::string_view sqliteSql) {
    auto tokens = tokenize(sqliteSql);
    std::string out;
    int maxParam = 0;
    bool ignoreConflicts = false;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind == Token::Param) {
            int n = t.text.size() > 1 ? std::stoi(t.text.substr(1)) : maxParam + 1;
            if (n > maxParam) maxParam = n;
            out += "$" + std::to_string(n);
            continue;
        }
        if (t.kind != Token::Word) {
            out += t.text;
            continue;
        }
        std::string word = upper(t.text);
        if (word == "INSERT") {
            std::size_t orWord = nextWord(tokens, i);
            std::size_t ignoreWord = orWord < tokens.size() ? nextWord(tokens, orWord) : tokens.size();
            if (orWord < tokens.size() && ignoreWord < tokens.size() && upper(tokens[orWord].text) == "OR" &&
                upper(tokens[ignoreWord].text) == "IGNORE") {
                out += t.text;
                i = ignoreWord;  // the space after IGNORE is copied next
                ignoreConflicts = true;
                continue;
            }
        } else if (word == "INTEGER") {
            std::size_t primary = nextWord(tokens, i);
            std::size_t key = primary < tokens.size() ? nextWord(tokens, primary) : tokens.size();
            bool isKey = primary < tokens.size() && key < tokens.size() &&
                         upper(tokens[primary].text) == "PRIMARY" && upper(tokens[key].text) == "KEY";
            out += isKey ? "BIGSERIAL" : "BIGINT";
            continue;
        } else if (word == "REFERENCES") {
            // REFERENCES table(column): SQLite does not enforce foreign keys (its default), so neither
            // does PostgreSQL; the same rows are accepted on both.
            std::size_t k = i + 1;
            while (k < tokens.size() && tokens[k].text.find(')') == std::string::npos) ++k;
            if (k < tokens.size()) {
                std::string& rest = tokens[k].text;
                rest = rest.substr(rest.find(')') + 1);
                out.pop_back();  // the space before REFERENCES
                i = k - 1;
                continue;
            }
        } else if (word == "BLOB") {
            out += "BYTEA";
            continue;
        } else if (word == "REAL") {
            out += "DOUBLE PRECISION";
            continue;
        }
        out += t.text;
    }
    if (ignoreConflicts) {
        std::size_t end = out.find_last_not_of(" \t\r\n;");
        out = out.substr(0, end + 1) + " ON CONFLICT DO NOTHING";
    }
    return out;
}

}  // namespace xq::coord
