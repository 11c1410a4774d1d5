#!/usr/bin/env python3
"""Renders deploy/k8s with `kubectl kustomize` (offline) and checks the objects against the binaries:
every flag a container passes is one its binary accepts (its --help), ports named by probes, Services and
flags are the ports the containers open, the worker's CPU request equals its --concurrency, Secrets
referenced exist with their keys, and every image is built by deploy/Containerfile.

    check_k8s.py SOURCE_DIR BIN_DIR      exits 1 naming each mismatch
"""
import re
import subprocess
import sys

import yaml

source, bindir = sys.argv[1], sys.argv[2]
problems = []


def problem(text):
    problems.append(text)


rendered = subprocess.run(["kubectl", "kustomize", source + "/deploy/k8s"], capture_output=True, text=True)
if rendered.returncode != 0:
    sys.exit("kubectl kustomize deploy/k8s failed:\n" + rendered.stderr)
objects = [o for o in yaml.safe_load_all(rendered.stdout) if o]
by_kind = {}
for o in objects:
    by_kind.setdefault(o["kind"], {})[o["metadata"]["name"]] = o


def get(kind, name):
    o = by_kind.get(kind, {}).get(name)
    if o is None:
        problem(f"no {kind} {name}")
    return o or {}


secrets = {name: set((o.get("stringData") or o.get("data") or {}).keys()) for name, o in by_kind.get("Secret", {}).items()}
containerfile = open(source + "/deploy/Containerfile").read()
targets = set(re.findall(r"^FROM \S+ AS (\S+)", containerfile, re.M))
image_target = {"xq": "xq", "xq-postgres": "postgres"}

# Every workload's pods: labels, containers, and the ports they open by name.
workloads = [o for kind in ("Deployment", "StatefulSet") for o in by_kind.get(kind, {}).values()]
for w in workloads:
    name = w["metadata"]["name"]
    spec = w["spec"]
    labels = spec["template"]["metadata"]["labels"]
    for k, v in spec["selector"]["matchLabels"].items():
        if labels.get(k) != v:
            problem(f"{name}: selector {k}={v} does not select its own pods")
    for c in spec["template"]["spec"]["containers"]:
        where = f"{name}/{c['name']}"
        image = c["image"].split(":")[0]
        if image not in image_target or image_target[image] not in targets:
            problem(f"{where}: image {c['image']} is not built by deploy/Containerfile (targets {sorted(targets)})")
        ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
        env = {e["name"]: e for e in c.get("env", [])}
        for e in env.values():
            ref = e.get("valueFrom", {}).get("secretKeyRef")
            if ref and ref["key"] not in secrets.get(ref["name"], set()):
                problem(f"{where}: env {e['name']} reads Secret {ref['name']} key {ref['key']}, which does not exist")
        for probe in ("readinessProbe", "livenessProbe"):
            p = c.get(probe)
            if p is None:
                if ports:  # a server; workers open no port and have nothing to probe
                    problem(f"{where}: no {probe}")
                continue
            for kind in ("grpc", "httpGet", "tcpSocket"):
                if kind in p:
                    port = p[kind]["port"]
                    if port not in ports and port not in ports.values():
                        problem(f"{where}: {probe} asks port {port}, which the container does not open")
        command = c.get("command", [])
        if not command or not command[0].startswith("xq"):
            continue
        binary = command[0]
        if f"/build/bin/{binary}" not in containerfile:
            problem(f"{where}: {binary} is not copied into the image by deploy/Containerfile")
        help_text = subprocess.run([bindir + "/" + binary, "--help"], capture_output=True, text=True).stdout
        args = c.get("args", [])
        values = {}
        for i, a in enumerate(args):
            if a.startswith("--"):
                if not re.search(r"(^|\s)" + re.escape(a) + r"\b", help_text):
                    problem(f"{where}: {binary} has no option {a}")
                values[a] = args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("--") else ""
        for v in values.values():
            for var in re.findall(r"\$\((\w+)\)", v):
                if var not in env:
                    problem(f"{where}: argument uses $({var}), which the container does not define")
        if binary == "xq-coordinator":
            for flag, port_name in (("--listen", "grpc"), ("--http", "http")):
                port = int(values.get(flag, ":0").rsplit(":", 1)[1])
                if ports.get(port_name) != port:
                    problem(f"{where}: {flag} {values.get(flag)} but port {port_name} is {ports.get(port_name)}")
            if "grpc" not in c.get("readinessProbe", {}) or "grpc" not in c.get("livenessProbe", {}):
                problem(f"{where}: probes should ask the gRPC health service")
            if spec.get("replicas", 1) < 2:
                problem(f"{where}: fewer than 2 coordinator replicas")
            if "--store" not in values:
                problem(f"{where}: replicas need --store (PostgreSQL)")
        if binary == "xq-worker":
            concurrency = values.get("--concurrency", "1")
            cpu = str(c.get("resources", {}).get("requests", {}).get("cpu", ""))
            if cpu != concurrency:
                problem(f"{where}: CPU request {cpu!r} differs from --concurrency {concurrency}")
            target = values.get("--coordinator", "")
            m = re.match(r"(?:dns:///)?([\w.-]+):(\d+)$", target)
            service = by_kind.get("Service", {}).get(m.group(1)) if m else None
            if not service or int(m.group(2)) not in [p["port"] for p in service["spec"]["ports"]]:
                problem(f"{where}: --coordinator {target} is no Service port")
            elif service["spec"].get("clusterIP") != "None":
                problem(f"{where}: the coordinator Service should be headless so workers see every replica")

# Services select pods that open their target ports.
for name, s in by_kind.get("Service", {}).items():
    selected = [w for w in workloads
                if all(w["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in s["spec"]["selector"].items())]
    if not selected:
        problem(f"Service {name} selects no pods")
    for p in s["spec"]["ports"]:
        target = p.get("targetPort", p["port"])
        for w in selected:
            opened = [q for c in w["spec"]["template"]["spec"]["containers"] for q in c.get("ports", [])]
            if not any(target in (q.get("name"), q["containerPort"]) for q in opened):
                problem(f"Service {name}: target port {target} is not opened by {w['metadata']['name']}")

pdb = get("PodDisruptionBudget", "xq-coordinator")
if pdb and pdb["spec"]["selector"]["matchLabels"] != get("Deployment", "xq-coordinator")["spec"]["selector"]["matchLabels"]:
    problem("PodDisruptionBudget xq-coordinator does not select the coordinator's pods")
pg = get("StatefulSet", "xq-postgres")
if pg and not pg["spec"].get("volumeClaimTemplates"):
    problem("StatefulSet xq-postgres has no volume")
get("Deployment", "xq-worker")

if problems:
    print("deploy/k8s does not match the binaries:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"deploy/k8s: {len(objects)} objects checked against {bindir}")
