"""Rewrite examples/conformance-matrix.json: the outcome of every case under the three
implementations CI runs side by side (tox -e matrix), kept small: status and answer only;
and examples/engines-matrix.json: the outcome of every position of the rules engines' mode
(sgn conformance --moves) under sgn and catanatron's generator (catanatron_engine.py,
which needs catanatron 3.2.1 installed).

Run it from the checkout after a change of the corpus or of an example, with node and
the JavaScript example's packages installed (npm ci --prefix examples/js), and review
the change with `sgn conformance diff OLD NEW` or git diff.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
IMPLEMENTATIONS = [f"{sys.executable} -m sgn.harness", f"node {HERE / 'js' / 'sgn-ajv.js'}",
                   f"{sys.executable} {HERE / 'python' / 'sgn_jsonschema.py'}"]
ENGINES = [f"{sys.executable} -m sgn.harness", f"{sys.executable} {HERE / 'python' / 'catanatron_engine.py'}"]


def main() -> int:
    write(IMPLEMENTATIONS, [], "conformance-matrix.json")
    write(ENGINES, ["--moves"], "engines-matrix.json")
    return 0


def write(implementations, options, name) -> None:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "matrix.json"
        command = [sys.executable, "-m", "sgn", "conformance", "--mode", "persistent", "-o", "json", *options,
                   "--report", str(report)] + [a for impl in implementations for a in ("--impl", impl)]
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        full = json.loads(report.read_text(encoding="utf-8"))
    rows = [{"id": row["id"], "results": {name: {"status": r["status"], "answer": r["answer"]}
                                          for name, r in row["results"].items()}} for row in full["matrix"]]
    meta = {"corpus": {"version": full["metadata"]["corpus"]["version"]},
            "implementations": [i["column"] for i in full["implementations"]]}
    text = '{"metadata": ' + json.dumps(meta) + ', "matrix": [\n' + ",\n".join(map(json.dumps, rows)) + "\n]}\n"
    (HERE / name).write_text(text, encoding="utf-8")
    print(f"wrote {HERE / name}: {len(rows)} cases")


if __name__ == "__main__":
    sys.exit(main())
