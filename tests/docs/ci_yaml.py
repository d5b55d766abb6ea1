#!/usr/bin/env python3
"""ci_yaml.py BENCHLAB DOC - the CI workflows of docs/ci.md hold up.

Every ```yaml block of DOC parses (PyYAML, safe_load) and is a workflow of
the kind it claims: a GitHub Actions workflow (`on`, `jobs`, each job with
`runs-on` and `steps`, each step a `run` or a `uses`) or a GitLab CI file
(jobs with a `script` list, `extends` naming a job of the file). Every
command line in them that runs benchlab (`benchlab CMD ...`, or the suite,
`build/bench_suite ...`, whose options are `benchlab run`'s) uses only
options that CMD's --help lists, so the page cannot drift from the tool.
Exits 1 naming each problem."""
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    # an interpreter of its own (pyenv, a venv) without PyYAML: Debian's
    # python3 has it from python3-yaml (scripts/packages.txt)
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("FAIL: no PyYAML for %s: make deps-check installs python3-yaml" % sys.executable)

bl, doc = sys.argv[1], sys.argv[2]
text = open(doc, encoding="utf-8").read()
blocks = re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)
problems = []
helps = {}


def options_of(cmd):
    if cmd not in helps:
        out = subprocess.run([bl, cmd, "--help"], capture_output=True, text=True).stdout
        helps[cmd] = set(re.findall(r"(--[a-z][a-z-]*)", out))
    return helps[cmd]


def check_line(where, line):
    for m in re.finditer(r"(?:^|[;&|(]\s*|\s)(benchlab\s+([a-z]+)|build/bench_suite|\S+/build/bench_suite)((?:\s+[^|;&>]*)?)",
                         line):
        cmd = m.group(2) or "run"
        known = options_of(cmd)
        if not known:
            problems.append("%s: benchlab %s: no such command" % (where, cmd))
            continue
        for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", m.group(3) or ""):
            if opt not in known:
                problems.append("%s: benchlab %s has no option %s: %s" % (where, cmd, opt, line.strip()))


def lines_of(script, where="", nested=False):
    """the lines of a run or script; an entry that YAML read as anything
    but a string (an unquoted ': ' makes a mapping) is a problem, as CI
    rejects it"""
    if isinstance(script, list):
        for s in script:
            if isinstance(s, list) and not nested:
                yield from lines_of(s, where, True)
            elif not isinstance(s, str):
                problems.append("%s: a script entry is not a string (quote it): %r" % (where, s))
            else:
                yield from s.splitlines()
    elif isinstance(script, str):
        yield from script.splitlines()
    elif script is not None:
        problems.append("%s: not a string: %r" % (where, script))


n_github = n_gitlab = 0
for i, block in enumerate(blocks, 1):
    where = "%s, yaml block %d" % (doc, i)
    try:
        d = yaml.safe_load(block)
    except yaml.YAMLError as e:
        problems.append("%s: does not parse: %s" % (where, e))
        continue
    if not isinstance(d, dict):
        problems.append("%s: not a mapping" % where)
        continue
    if "jobs" in d:  # GitHub Actions; YAML 1.1 reads the key `on` as true
        n_github += 1
        if "on" not in d and True not in d:
            problems.append("%s: a workflow without `on`" % where)
        for name, job in d["jobs"].items():
            if "runs-on" not in job or not job.get("steps"):
                problems.append("%s: job %s lacks runs-on or steps" % (where, name))
                continue
            for k, step in enumerate(job["steps"], 1):
                if "run" not in step and "uses" not in step:
                    problems.append("%s: job %s step %d is neither run nor uses" % (where, name, k))
                w = "%s: job %s step %d" % (where, name, k)
                for line in lines_of(step.get("run"), w):
                    check_line(w, line)
    else:  # GitLab CI
        n_gitlab += 1
        jobs = {k: v for k, v in d.items() if isinstance(v, dict) and k not in ("variables", "default")}
        if not any("script" in j for j in jobs.values()):
            problems.append("%s: no job with a script" % where)
        for name, job in jobs.items():
            ext = job.get("extends")
            if ext and ext not in d:
                problems.append("%s: job %s extends %s, which the file lacks" % (where, name, ext))
            if not name.startswith(".") and "script" not in job:
                problems.append("%s: job %s has no script" % (where, name))
            for key in ("before_script", "script"):
                w = "%s: job %s %s" % (where, name, key)
                for line in lines_of(job.get(key), w):
                    check_line(w, line)
if n_github < 1 or n_gitlab < 1:
    problems.append("%s: want a GitHub Actions workflow and a GitLab CI file, found %d and %d" %
                    (doc, n_github, n_gitlab))
for p in problems:
    print("FAIL:", p)
print("%d workflows checked (%d GitHub Actions, %d GitLab CI), %d benchlab commands' options" %
      (len(blocks), n_github, n_gitlab, len(helps)))
sys.exit(1 if problems else 0)
