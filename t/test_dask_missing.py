"""Without the optional extras, each option says how to install what it needs (exit 2)."""

import io
import sys

from sgn.cli import main

GOOD = '["1","RD",{"result":8}]\n'


def test_without_dask_the_option_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    (tmp_path / "a.sgn").write_text(GOOD)
    out = io.StringIO()
    assert main(["validate", "--dask", "local:2", str(tmp_path / "a.sgn")], out=out) == 2
    assert capsys.readouterr().err == (
        "sgn validate: --dask needs Dask's distributed scheduler: "
        "pip install 'dask[distributed]' (or install the package with its extra: "
        "pip install 'settlers-game-notation[dask]')\n"
    )
    assert out.getvalue() == ""


def test_without_fsspec_a_url_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "fsspec", None)
    assert main(["validate", "https://example.org/game.sgn"], out=io.StringIO()) == 2
    assert capsys.readouterr().err == (
        "sgn validate: reading URLs needs fsspec: "
        "pip install fsspec aiohttp (or install the package with its extra: "
        "pip install 'settlers-game-notation[remote]')\n"
    )


def test_without_pyarrow_parquet_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    (tmp_path / "a.sgn").write_text(GOOD)
    target = tmp_path / "out.parquet"
    assert main(["validate", "-o", "parquet", "--output-file", str(target), str(tmp_path / "a.sgn")]) == 2
    assert capsys.readouterr().err == (
        "sgn validate: -o parquet needs pyarrow: "
        "pip install pyarrow (or install the package with its extra: "
        "pip install 'settlers-game-notation[parquet]')\n"
    )
