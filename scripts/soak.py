#!/usr/bin/env python3
"""A chaos soak of the cluster (scripts/soak.sh runs it): a coordinator and four workers on 127.0.0.1
play an SPRT and a datagen test while, at random seeded moments, the script kill -9s workers and the
coordinator, pauses them (SIGSTOP, a worker for longer than its lease), cuts and restores their connections
through a TCP proxy of its own, fills the coordinator's disk and frees it, and corrupts a stored artifact.
At the end it checks that every acknowledged game is in the store and none is counted twice, that each
test's SPRT state equals a recomputation from its stored pairs, that the datagen positions equal the
acknowledged chunks, and that every process that should run is running. Prints the figures; exits 1 on any
violation.
"""
import argparse
import atexit
import hashlib
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
LEASE_TIMEOUT = 5  # seconds: a paused worker loses its lease


def log(msg):
    print(time.strftime("%H:%M:%S ") + msg, flush=True)


class Proxy:
    """Forwards TCP connections from a port of its own to the coordinator; cut() drops every connection
    and refuses new ones until restore()."""

    def __init__(self, target_port):
        self.target = target_port
        self.lock = threading.Lock()
        self.conns = []
        self.listener = None
        self.port = None
        self.restore()

    def restore(self):
        with self.lock:
            if self.listener:
                return
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", self.port or 0))
            s.listen(512)
            self.port = s.getsockname()[1]
            self.listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def cut(self):
        with self.lock:
            if self.listener:
                self.listener.close()
                self.listener = None
            for c in self.conns:
                try:
                    c.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                c.close()
            self.conns = []

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:
                    client.close()
                    upstream.close()
                    return
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Cluster:
    def __init__(self, args):
        self.args = args
        self.dir = args.dir
        self.data = os.path.join(self.dir, "data")
        os.makedirs(self.data, exist_ok=True)
        self.coordinator = None
        self.port = None
        self.workers = {}  # index -> Popen
        self.starts = {}  # index -> restarts so far (each start gets a fresh cache)
        self.logs = []  # every worker log file
        self.user = self.token("user")
        self.worker_token = self.token("worker")
        # Should the script itself fail, it takes its cluster down with it (engines die with their workers).
        atexit.register(self.kill_all)

    def kill_all(self):
        for p in list(self.workers.values()) + [self.coordinator]:
            if p is not None and p.poll() is None:
                p.kill()

    def token(self, role):
        out = subprocess.run([os.path.join(BIN, "xq-coordinator"), "--data", self.data, "token", "create",
                              "--role", role], check=True, capture_output=True, text=True).stdout
        return out.strip().splitlines()[-1]

    def start_coordinator(self):
        listen = "127.0.0.1:%d" % (self.port or 0)
        err = open(os.path.join(self.dir, "coordinator.err"), "a")
        self.coordinator = subprocess.Popen(
            [os.path.join(BIN, "xq-coordinator"), "--data", self.data, "--listen", listen, "--no-approval",
             "--lease-timeout", str(LEASE_TIMEOUT), "--heartbeat", "1", "--max-chunk-pairs", "4",
             "--rate", "0"],
            stdout=subprocess.PIPE, stderr=err, text=True)
        for line in self.coordinator.stdout:
            if line.startswith("listening on "):
                self.port = int(line.strip().rsplit(":", 1)[1])
                break
        else:
            raise RuntimeError("the coordinator did not start; see coordinator.err")
        threading.Thread(target=self.coordinator.stdout.read, daemon=True).start()

    def start_worker(self, i, address):
        n = self.starts.get(i, 0)
        self.starts[i] = n + 1
        path = os.path.join(self.dir, "worker%d-%d.log" % (i, n))
        self.logs.append(path)
        # A fresh cache at every start: a restarted worker fetches the artifacts again (and so meets a
        # corrupted one).
        self.workers[i] = subprocess.Popen(
            [os.path.join(BIN, "xq-worker"), "--coordinator", address, "--token", self.worker_token,
             "--concurrency", "1", "--cache", os.path.join(self.dir, "cache%d-%d" % (i, n)), "--name",
             "w%d" % i, "--nps", "1000000", "--shutdown-grace", "10"],
            stdout=subprocess.DEVNULL, stderr=open(path, "w"))

    def xq(self, *args):
        out = subprocess.run([os.path.join(BIN, "xq")] + list(args) +
                             ["--coordinator", "127.0.0.1:%d" % self.port, "--token", self.user],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError("xq %s: %s" % (" ".join(args), out.stderr.strip()))
        return out.stdout


def fill_disk(path, stop):
    """Writes until the file system is full; returns the bytes written. Unbuffered, so that nothing is
    left to flush (and fail) when the file is closed on a full disk."""
    written = 0
    chunk = b"\0" * (1 << 20)
    try:
        with open(path, "wb", buffering=0) as f:
            while not stop.is_set():
                n = f.write(chunk)
                if not n:
                    break
                written += n
    except OSError:
        pass
    return written


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--disk-full", action="store_true", help="the data directory is a small file system")
    args = p.parse_args()
    rng = random.Random(args.seed)
    counts = {k: 0 for k in ("worker_kills", "coordinator_kills", "worker_pauses", "coordinator_pauses",
                             "cuts", "disk_fills", "corruptions", "tests_submitted")}

    c = Cluster(args)
    c.start_coordinator()
    proxy = Proxy(c.port)
    address = "127.0.0.1:%d" % proxy.port
    log("coordinator on %d, proxy on %d, data in %s, seed %d" % (c.port, proxy.port, c.data, args.seed))

    engine = os.path.join(BIN, "xq-engine")
    victim = os.path.join(args.dir, "victim-engine")  # another hash: the artifact to corrupt
    with open(engine, "rb") as src, open(victim, "wb") as dst:
        dst.write(src.read() + b"\n")
    os.chmod(victim, 0o755)
    victim_sha = hashlib.sha256(open(victim, "rb").read()).hexdigest()

    def submit_sprt():
        counts["tests_submitted"] += 1
        out = c.xq("submit", "--base", engine, "--dev", engine, "--each", "nodes=400", "--sprt",
                   "elo0=-1,elo1=1", "--games", "400000", "--max-moves", "100")
        return int(out.strip().splitlines()[-1])

    def submit_datagen():
        counts["tests_submitted"] += 1
        out = c.xq("submit", "datagen", "--engine", engine, "--games", "200000", "--nodes", "150",
                   "--slice-games", "8", "--chunk-positions", "64")
        return int(out.strip().splitlines()[-1])

    sprt = [submit_sprt()]
    datagen = [submit_datagen()]
    out = c.xq("submit", "--base", victim, "--dev", victim, "--each", "nodes=400", "--games", "100000",
               "--max-moves", "100", "--throughput", "0.3")
    victim_test = int(out.strip().splitlines()[-1])
    for i in range(args.workers):
        c.start_worker(i, address)

    end = time.time() + 60 * args.minutes
    corrupt_at = time.time() + 60 * args.minutes * rng.uniform(0.2, 0.5)
    corrupted = False
    events = ["kill_worker", "kill_coordinator", "pause_worker", "pause_coordinator", "cut"]
    if args.disk_full:
        events.append("fill_disk")
    while time.time() < end:
        time.sleep(rng.uniform(4, 15))
        if not corrupted and time.time() > corrupt_at:
            path = os.path.join(c.data, "artifacts", victim_sha)
            with open(path, "r+b") as f:
                f.seek(4096)
                byte = f.read(1)
                f.seek(4096)
                f.write(bytes([byte[0] ^ 0xFF]))
            corrupted = True
            counts["corruptions"] += 1
            log("corrupted the stored artifact %s (the victim test's engine)" % victim_sha[:12])
            i = rng.randrange(args.workers)  # a worker with a fresh cache will fetch it
            c.workers[i].kill()
            c.workers[i].wait()
            c.start_worker(i, address)
            continue
        event = rng.choice(events)
        if event == "kill_worker":
            i = rng.randrange(args.workers)
            c.workers[i].kill()
            c.workers[i].wait()
            counts["worker_kills"] += 1
            time.sleep(rng.uniform(0.5, 4))
            c.start_worker(i, address)
            log("kill -9 worker %d, restarted" % i)
        elif event == "kill_coordinator":
            c.coordinator.kill()
            c.coordinator.wait()
            counts["coordinator_kills"] += 1
            time.sleep(rng.uniform(0.5, 3))
            c.start_coordinator()
            log("kill -9 coordinator, restarted")
        elif event == "pause_worker":
            i = rng.randrange(args.workers)
            seconds = LEASE_TIMEOUT + rng.uniform(2, 6)
            c.workers[i].send_signal(signal.SIGSTOP)
            time.sleep(seconds)
            c.workers[i].send_signal(signal.SIGCONT)
            counts["worker_pauses"] += 1
            log("SIGSTOP worker %d for %.1f s (lease timeout %d s)" % (i, seconds, LEASE_TIMEOUT))
        elif event == "pause_coordinator":
            seconds = rng.uniform(1, 6)
            c.coordinator.send_signal(signal.SIGSTOP)
            time.sleep(seconds)
            c.coordinator.send_signal(signal.SIGCONT)
            counts["coordinator_pauses"] += 1
            log("SIGSTOP coordinator for %.1f s" % seconds)
        elif event == "cut":
            seconds = rng.uniform(2, 10)
            proxy.cut()
            time.sleep(seconds)
            proxy.restore()
            counts["cuts"] += 1
            log("cut the workers' connections for %.1f s" % seconds)
        elif event == "fill_disk":
            stop = threading.Event()
            path = os.path.join(c.data, "filler")
            try:
                written = fill_disk(path, stop)
                seconds = rng.uniform(3, 12)
                time.sleep(seconds)
            finally:
                if os.path.exists(path):
                    os.remove(path)
            counts["disk_fills"] += 1
            log("filled the coordinator's disk (%d MB) for %.1f s" % (written >> 20, seconds))
        # Tests that ended get a successor, so that there is always work.
        try:
            for lst, fn in ((sprt, submit_sprt), (datagen, submit_datagen)):
                state = json.loads(c.xq("show", str(lst[-1]), "--json"))["state"]
                if state != "running":
                    lst.append(fn())
                    log("test %d ended (%s); submitted %d" % (lst[-2], state, lst[-1]))
        except Exception as e:  # the coordinator may be down for a moment: next round
            log("could not look at the tests: %s" % e)

    # The end: everything back, a moment to settle, then every process must still be running.
    proxy.restore()
    time.sleep(10)
    problems = []
    for i, w in c.workers.items():
        if w.poll() is not None:
            problems.append("worker %d is not running (exit %s)" % (i, w.returncode))
    if c.coordinator.poll() is not None:
        problems.append("the coordinator is not running (exit %s)" % c.coordinator.returncode)
    for w in c.workers.values():
        w.send_signal(signal.SIGTERM)
    for w in c.workers.values():
        try:
            w.wait(timeout=60)
        except subprocess.TimeoutExpired:
            problems.append("a worker did not stop within 60 s of SIGTERM")
            w.kill()
    views = {}
    for t in sprt + datagen + [victim_test]:
        views[t] = json.loads(c.xq("show", str(t), "--json"))
    c.coordinator.send_signal(signal.SIGTERM)
    c.coordinator.wait(timeout=30)
    figures = check(c, views, sprt, datagen, victim_test, corrupted, problems)
    figures.update(counts)
    figures["minutes"] = args.minutes
    figures["seed"] = args.seed
    figures["problems"] = problems
    with open(os.path.join(args.dir, "soak.json"), "w") as f:
        json.dump(figures, f, indent=2)
    print(json.dumps(figures, indent=2))
    if problems:
        log("FAILED: " + "; ".join(problems[:10]))
        sys.exit(1)
    log("passed: no acknowledged game lost, none counted twice")


def check(c, views, sprt, datagen, victim_test, corrupted, problems):
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(c.data, "coordinator.db"), uri=True)
    q = lambda sql, *a: db.execute(sql, a).fetchall()
    # What the workers were told was kept.
    acked_reports, acked_slices = {}, []
    report_re = re.compile(r"lease (\d+): report (\d+) acknowledged, (\d+) pairs")
    slice_re = re.compile(r"lease (\d+): slice (\d+) completed, (\d+) chunks with (\d+) positions acknowledged")
    for path in c.logs:
        for line in open(path, errors="replace"):
            m = report_re.search(line)
            if m:
                acked_reports[(int(m.group(1)), int(m.group(2)))] = int(m.group(3))
            m = slice_re.search(line)
            if m:
                acked_slices.append(tuple(int(g) for g in m.groups()))
    stored = {(l, s): n for l, s, n in q("SELECT lease_id, sequence, pairs FROM reports")}
    lost = [k for k, n in acked_reports.items() if stored.get(k) != n]
    for k in lost[:5]:
        problems.append("report %d of lease %d was acknowledged but is not in the store" % (k[1], k[0]))
    # Counted once: the pairs rows (unique by test and index) are exactly the reports' pairs, and the
    # tests' counts are exactly the pairs rows.
    games = 0
    for t in sprt + [victim_test]:
        (pairs,) = q("SELECT COUNT(*) FROM pairs WHERE test_id = ?", t)[0]
        (reported,) = q("SELECT COALESCE(SUM(r.pairs), 0) FROM reports r JOIN leases l ON l.id = r.lease_id "
                        "WHERE l.test_id = ?", t)[0]
        row = q("SELECT p0, p1, p2, p3, p4, llr FROM tests WHERE id = ?", t)[0]
        penta = [n for (n,) in [q("SELECT COUNT(*) FROM pairs WHERE test_id = ? AND penta = ?", t, i)[0]
                                for i in range(5)]]
        games += 2 * pairs
        if pairs != reported:
            problems.append("test %d: %d pairs stored, its reports hold %d" % (t, pairs, reported))
        if list(row[:5]) != penta:
            problems.append("test %d: counts %s, its stored pairs give %s" % (t, list(row[:5]), penta))
        if t in sprt and sum(penta) > 0:
            out = subprocess.run([os.path.join(BIN, "xq"), "sprt", "--penta", ",".join(map(str, penta)),
                                  "--elo0", "-1", "--elo1", "1", "--json"], capture_output=True, text=True)
            llr = json.loads(out.stdout)["llr"]
            if abs(llr - row[5]) > 1e-6:
                problems.append("test %d: stored LLR %.6f, recomputed %.6f" % (t, row[5], llr))
    # Datagen: every completed slice holds what its worker was told, and the test's positions are the
    # chunks it keeps.
    positions = 0
    for lease, slice_, chunks, pos in acked_slices:
        got = q("SELECT COUNT(*), COALESCE(SUM(positions), 0) FROM data_chunks WHERE lease_id = ? AND "
                "discarded = 0", lease)[0]
        done = q("SELECT state, lease_id FROM datagen_slices WHERE slice = ? AND lease_id = ?", slice_, lease)
        if got != (chunks, pos) or not done or done[0][0] != 2:
            problems.append("slice %d of lease %d: acknowledged %d chunks/%d positions, the store keeps %s" %
                            (slice_, lease, chunks, pos, got))
    for t in datagen:
        (kept,) = q("SELECT COALESCE(SUM(positions), 0) FROM data_chunks WHERE test_id = ? AND discarded = 0",
                    t)[0]
        shown = views[t].get("datagen", {}).get("positions", 0)
        positions += kept
        if kept != shown:
            problems.append("datagen test %d: shows %d positions, its chunks hold %d" % (t, shown, kept))
        for path, sha in q("SELECT path, sha256 FROM data_chunks WHERE test_id = ? AND discarded = 0", t):
            full = os.path.join(c.data, path)
            if not os.path.exists(full) or hashlib.sha256(open(full, "rb").read()).hexdigest() != sha:
                problems.append("chunk %s of test %d is missing or damaged" % (path, t))
                break
    victim = views[victim_test]
    if corrupted and not (victim["state"] == "stopped" and "damaged" in victim["result"]):
        problems.append("the test whose artifact was corrupted is %s (%s), not stopped as damaged" %
                        (victim["state"], victim["result"]))
    return {"games_stored": games, "reports_acknowledged": len(acked_reports), "acknowledged_reports_lost":
            len(lost), "slices_acknowledged": len(acked_slices), "datagen_positions": positions,
            "victim_test": {"state": victim["state"], "result": victim["result"]}}


if __name__ == "__main__":
    main()
