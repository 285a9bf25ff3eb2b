#!/usr/bin/env python3
"""Both engines (z3, enum) must give the same states, execution counts and
verdicts on every test in corpus/spec/ and litmus/ (engine.hpp: "They must
agree: same set of consistent executions, same counts")."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import models_def  # noqa: E402  (memmodel/models.def, the one table of model names)

exe, src = sys.argv[1], os.environ.get("PTXCHECK_SRC", ".")
dirs = [os.path.join(src, "litmus"), os.path.join(src, "corpus", "spec")]
out = {}
for engine in ("z3", "enum"):
    for model in models_def.readings():
        p = subprocess.run([exe, "--json", f"--engine={engine}", f"--model={model}", *dirs],
                           capture_output=True, text=True)
        for line in p.stdout.splitlines():
            r = json.loads(line)
            key = (model, r["file"])
            val = (r["status"], r.get("verdict"), json.dumps(r.get("states")), r.get("positive"), r.get("negative"))
            out.setdefault(key, {})[engine] = val
bad = 0
for key, v in sorted(out.items()):
    if v.get("z3") != v.get("enum"):
        bad += 1
        print(f"DIFFER {key}: z3={v.get('z3')} enum={v.get('enum')}")
    elif v["z3"][0] != "decided":
        bad += 1
        print(f"NOT DECIDED {key}: {v['z3']}")
print(f"{len(out)} (model, test) pairs, {bad} problems")
sys.exit(1 if bad or len(out) < 3 * 30 else 0)
