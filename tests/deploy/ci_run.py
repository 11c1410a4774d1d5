#!/usr/bin/env python3
"""Runs the shell steps of one of deploy/ci's examples as its CI service would, here, without the service:
the workflow or job is read from its YAML, its expressions and variables are filled from a JSON context,
and its shell steps run in the current directory (the checkout), in order, stopping at the first that
fails; the exit status is that step's. Actions (`uses:` steps) are the service's and are left out: the
caller has made the checkout.

    ci_run.py github deploy/ci/github-actions.yml context.json [CHECKOUT]
        context: {"secrets": {...}, "vars": {...}, "github": {"event": {...}}, "env": {...}}
        "env" is the runner's own environment (PATH, RUNNER_TEMP, ...), added to the process's.
    ci_run.py gitlab deploy/ci/gitlab-ci.yml context.json
        context: {"variables": {...}}: CI/CD and predefined variables (CI_COMMIT_SHA, ...).
"""
import json
import os
import re
import subprocess
import sys

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}")


def lookup(context, path):
    value = context
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return ""  # as GitHub: a missing secret or variable is the empty string
        value = value[part]
    return "" if value is None else str(value)


def render(text, context):
    return EXPRESSION.sub(lambda m: lookup(context, m.group(1)), str(text))


def run_github(doc, context):
    jobs = doc.get("jobs") or {}
    if len(jobs) != 1:
        sys.exit("ci_run: expected one job, found %d" % len(jobs))
    (name, job), = jobs.items()
    env = dict(os.environ)
    env.update({k: str(v) for k, v in (context.get("env") or {}).items()})
    env.update({k: render(v, context) for k, v in (job.get("env") or {}).items()})
    for i, step in enumerate(job.get("steps") or []):
        if "run" not in step:
            print("ci_run: step %d (%s) is the service's, left out" % (i + 1, step.get("uses")), flush=True)
            continue
        step_env = dict(env)
        step_env.update({k: render(v, context) for k, v in (step.get("env") or {}).items()})
        print("ci_run: step %d: %s" % (i + 1, step.get("name", "run")), flush=True)
        # GitHub's default shell on Linux: bash --noprofile --norc -eo pipefail {0}
        code = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", render(step["run"], context)],
                               env=step_env)
        if code != 0:
            print("ci_run: step %d failed with exit code %d" % (i + 1, code), flush=True)
            return code
    return 0


def run_gitlab(doc, context):
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    if len(jobs) != 1:
        sys.exit("ci_run: expected one job, found %d" % len(jobs))
    (name, job), = jobs.items()
    env = dict(os.environ)
    env.update({k: str(v) for k, v in (job.get("variables") or {}).items()})
    env.update({k: str(v) for k, v in (context.get("variables") or {}).items()})
    # GitLab's shell runner: the lines run in order in one bash, the first failing line fails the job.
    script = "set -eo pipefail\n" + "\n".join(job["script"]) + "\n"
    print("ci_run: job %s" % name, flush=True)
    return subprocess.call(["bash", "--noprofile", "--norc", "-c", script], env=env)


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("github", "gitlab"):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        doc = yaml.safe_load(f)
    with open(sys.argv[3]) as f:
        context = json.load(f)
    if len(sys.argv) == 5:
        os.chdir(sys.argv[4])
    sys.exit(run_github(doc, context) if sys.argv[1] == "github" else run_gitlab(doc, context))


if __name__ == "__main__":
    main()
