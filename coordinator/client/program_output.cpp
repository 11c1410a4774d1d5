#include "program_output.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace xq::coord {

ProgramResult runProgram(const std::vector<std::string>& args) {
    if (args.empty()) throw std::runtime_error("no program to run");
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        throw std::runtime_error("pipe failed");
    }
    std::vector<char*> argv;  // made before fork, as everything the child uses
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        for (int fd : {out[0], out[1], err[0], err[1], devnull})
            if (fd >= 0) close(fd);
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        if (devnull >= 0) dup2(devnull, 0);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    if (devnull >= 0) close(devnull);
    close(out[1]);
    close(err[1]);
    ProgramResult r;
    // Both pipes at once, so that neither fills while the other is read.
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* texts[2] = {&r.out, &r.err};
    char buf[8192];
    for (int open = 2; open > 0;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                texts[i]->append(buf, std::size_t(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (const auto& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    while (!r.err.empty() && r.err.back() == '\n') r.err.pop_back();
    return r;
}

}  // namespace xq::coord
