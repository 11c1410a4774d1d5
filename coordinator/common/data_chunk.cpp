#include "data_chunk.h"

#include <zlib.h>

namespace xq::coord {

namespace {

constexpr int GzipWindowBits = 15 + 16;  // zlib's way of asking for a gzip header and trailer

std::string formatLines(const std::vector<tuner::LabeledPosition>& positions, std::size_t begin,
                        std::size_t end) {
    std::string text;
    text.reserve((end - begin) * 64);
    for (std::size_t i = begin; i < end; ++i) {
        text += tuner::formatDataLine(positions[i]);
        text += '\n';
    }
    return text;
}

void encodeRange(const std::vector<tuner::LabeledPosition>& positions, std::size_t begin, std::size_t end,
                 std::size_t maxBytes, std::vector<EncodedChunk>& out) {
    if (begin == end) return;
    if (end - begin <= MaxChunkPositions) {
        std::string data = gzipText(formatLines(positions, begin, end));
        if (data.size() <= maxBytes || end - begin == 1) {
            if (data.size() > maxBytes)
                throw std::invalid_argument("one position does not fit in a chunk of " +
                                            std::to_string(maxBytes) + " bytes");
            out.push_back({std::move(data), std::uint64_t(end - begin)});
            return;
        }
    }
    std::size_t mid = begin + (end - begin) / 2;
    encodeRange(positions, begin, mid, maxBytes, out);
    encodeRange(positions, mid, end, maxBytes, out);
}

}  // namespace

std::string gzipText(std::string_view text) {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, GzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("gzip: cannot initialise zlib");
    std::string out(deflateBound(&z, uLong(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error("gzip: compression failed");
    return out;
}

std::string gunzipText(std::string_view data, std::size_t maxBytes, bool members) {
    if (data.size() < 18 || std::uint8_t(data[0]) != 0x1f || std::uint8_t(data[1]) != 0x8b)
        throw std::invalid_argument("not gzip data");
    z_stream z{};
    if (inflateInit2(&z, GzipWindowBits) != Z_OK) throw std::runtime_error("gzip: cannot initialise zlib");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = uInt(data.size());
    std::string out;
    char buf[1 << 16];
    int rc = Z_OK;
    while (true) {
        if (rc == Z_STREAM_END) {
            // Another gzip member may follow (RFC 1952 allows several in one file).
            if (!members || z.avail_in == 0) break;
            if (inflateReset(&z) != Z_OK) {
                inflateEnd(&z);
                throw std::runtime_error("gzip: cannot reset zlib");
            }
        }
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&z);
            throw std::invalid_argument(rc == Z_BUF_ERROR ? "truncated gzip data" : "corrupt gzip data");
        }
        out.append(buf, sizeof buf - z.avail_out);
        if (out.size() > maxBytes) {
            inflateEnd(&z);
            throw std::invalid_argument("gzip data inflates beyond " + std::to_string(maxBytes) + " bytes");
        }
    }
    bool trailing = z.avail_in != 0;
    inflateEnd(&z);
    if (trailing) throw std::invalid_argument("bytes after the end of the gzip data");
    return out;
}

std::vector<EncodedChunk> encodeChunks(const std::vector<tuner::LabeledPosition>& positions,
                                       std::size_t maxBytes) {
    std::vector<EncodedChunk> out;
    encodeRange(positions, 0, positions.size(), maxBytes, out);
    return out;
}

std::vector<tuner::LabeledPosition> decodeChunk(std::string_view data) {
    std::string text = gunzipText(data, MaxChunkTextBytes);
    std::vector<tuner::LabeledPosition> out;
    std::size_t lineNo = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::size_t end = nl == std::string::npos ? text.size() : nl;
        std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        ++lineNo;
        tuner::LabeledPosition p;
        try {
            if (!tuner::parseDataLine(line, p)) continue;
        } catch (const tuner::DataError& e) {
            throw std::invalid_argument("line " + std::to_string(lineNo) + ": " + e.what());
        }
        out.push_back(std::move(p));
        if (out.size() > MaxChunkPositions)
            throw std::invalid_argument("more than " + std::to_string(MaxChunkPositions) + " positions");
    }
    return out;
}

}  // namespace xq::coord
