"""`sgn validate -o parquet --output-file FILE`: one row per diagnostic and one per file, the
same diagnostics as the JSON report, and the documented query runs as written."""

import io
import json
import re
from collections import Counter

import pytest

from conftest import CHECKOUT
from sgn.cli import main
from test_jobs import BAD, GOOD

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (the extra 'parquet')")


@pytest.fixture
def logs(tmp_path):
    files = {"a.sgn": GOOD + BAD + "\n" + "[1]\n", "b.sgn": GOOD, "c.sgn": '["1","RD",{"result":"\\udcff"}]\n'}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in files] + [str(tmp_path / "missing.sgn")]


def test_one_row_per_diagnostic_as_in_the_json_report_then_one_per_file(logs, tmp_path):
    target = tmp_path / "out.parquet"
    code = main(["validate", "-o", "parquet", "--output-file", str(target), *logs])
    report = io.StringIO()
    assert main(["validate", "-o", "json", *logs], out=report) == code == 2
    expected = json.loads(report.getvalue())
    rows = pq.read_table(target).to_pylist()
    diagnostics = [r for r in rows if r["kind"] == "diagnostic"]
    files = [r for r in rows if r["kind"] == "file"]
    assert len(rows) == len(diagnostics) + len(files) and rows[: len(diagnostics)] == diagnostics
    # (the table's fields are fixed: a column, no end column, docs/commands.md)
    assert [{k: v for k, v in r.items() if v is not None and k != "kind"} for r in diagnostics] == [
        {k: v for k, v in d.items() if k != "end_column"} for d in expected["diagnostics"]
    ]
    assert [(r["file"], r["messages"], r["errors"], r["warnings"], r["verdict"]) for r in files] == [
        (
            f["file"],
            f["messages"],
            f["errors"],
            f["warnings"],
            "unreadable" if f["file"].endswith("missing.sgn") else ("valid" if f["valid"] else "invalid"),
        )
        for f in expected["files"]
    ]
    assert all(r["code"] is None and r["line"] is None for r in files)
    assert all(r["messages"] is None for r in diagnostics)


def test_many_rows_go_in_row_groups(tmp_path, monkeypatch):
    from sgn.output import parquet

    monkeypatch.setattr(parquet, "ROW_GROUP", 100)
    (tmp_path / "many.sgn").write_text(BAD * 450)
    target = tmp_path / "out.parquet"
    assert main(["validate", "-o", "parquet", "--output-file", str(target), str(tmp_path / "many.sgn")]) == 1
    assert pq.ParquetFile(target).metadata.num_row_groups == 5 and pq.read_table(target).num_rows == 451


def test_the_documented_query_counts_errors_by_code(logs, tmp_path, monkeypatch):
    """docs/archives.md's three lines (pyarrow), run as written; pandas' too, if installed."""
    docs = (CHECKOUT / "docs" / "archives.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", docs, re.S)
    query = next(b for b in blocks if "import pyarrow" in b)
    assert len(query.strip().splitlines()) == 3
    report = io.StringIO()
    main(["validate", "-o", "json", *logs], out=report)
    errors = Counter(d["code"] for d in json.loads(report.getvalue())["diagnostics"] if d["severity"] == "error")
    assert len(errors) > 3
    monkeypatch.chdir(tmp_path)
    main(["validate", "-o", "parquet", "--output-file", "results.parquet", *logs])
    space = {}
    exec(query.replace("print(", "counted = ("), space)
    assert dict(zip(*space["counted"].to_pydict().values())) == errors
    try:
        import pandas  # noqa: F401
    except ImportError:
        return
    exec(next(b for b in blocks if "import pandas" in b).replace("print(", "counted = ("), space)
    assert dict(space["counted"]) == errors


def test_parquet_needs_an_output_file_and_one_that_can_be_written(logs, tmp_path, capsys):
    assert main(["validate", "-o", "parquet", *logs], out=io.StringIO()) == 2
    assert "name its file with --output-file FILE" in capsys.readouterr().err
    assert main(["validate", "-o", "parquet", "--output-file", str(tmp_path / "no" / "out.parquet"), *logs]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_output_file_takes_any_format(logs, tmp_path):
    report = io.StringIO()
    main(["validate", *logs], out=report)
    main(["validate", "--output-file", str(tmp_path / "out.txt"), *logs])
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == report.getvalue()
