"""The corpus's perft tables (test-corpus/perft.json, docs/moves.md "Perft tables"): current
with their source, of their format, the positions the issue asks for, and every count to
depth 3 what `sgn.game.perft` counts (`sgn corpus perft` recounts them all)."""

import json

import pytest

from conftest import CORPUS, run_cli
from sgn import corpus
from sgn.corpus import perft, source as corpus_source

TABLE = perft.load_table(CORPUS / perft.TABLE)


def test_perft_table_is_in_sync_with_its_source_and_versioned_with_the_corpus():
    built = perft.build_table(CORPUS, corpus_source.version(CORPUS))
    assert (CORPUS / perft.TABLE).read_text(encoding="utf-8") == perft.dump_table(built), (
        "test-corpus/perft.json is stale: run `sgn corpus build`"
    )
    assert TABLE["version"] == json.loads((CORPUS / corpus.BUNDLE).read_text(encoding="utf-8"))["version"]
    assert perft.load_table() == TABLE  # (the one the package ships)


def test_perft_table_holds_the_positions_asked_each_to_depth_three_at_least():
    ids = {p["id"] for p in TABLE["positions"]}
    assert {
        "standard-3p-before-setup",
        "standard-4p-before-setup",
        "after-setup-4p",
        "robber-and-discards-4p",
        "special-building-phase-6p",
        "every-card-6p",
    } <= ids
    for position in TABLE["positions"]:
        assert len(position["counts"]) >= 3 and max(position["counts"]) < 10**9, position["id"]


def test_perft_table_positions_are_what_they_say():
    games = {p["id"]: perft.position(p) for p in TABLE["positions"]}
    assert games["robber-and-discards-4p"].discards_owed and games["robber-and-discards-4p"].robber_due
    sbp = games["special-building-phase-6p"]
    assert sbp.count == 6 and sbp.rolled
    assert any(m[0] != sbp.current and m[1] == "BR" for m in sbp.legal_moves())
    played = {m[2]["cCode"] for m in games["every-card-6p"].legal_moves() if m[1] == "PD"}
    assert played == {"KN", "VP", "RB", "YP", "MO"}
    assert games["after-setup-4p"].phase == "turns" and not games["after-setup-4p"].rolled


def test_perft_table_counts_to_depth_three_are_sgns():
    assert perft.recount(TABLE, 3) == []


def test_perft_table_recount_finds_a_count_changed():
    broken = json.loads(json.dumps(TABLE))
    broken["positions"][2]["counts"][1] += 1
    assert perft.recount(broken, 2) == ["after-setup-4p: perft(2) is 132, the table says 133"]


def test_perft_table_out_of_format_is_refused(tmp_path):
    bad = dict(TABLE, positions=[dict(TABLE["positions"][0], counts=[-1])])
    path = tmp_path / "perft.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(corpus.CorpusError, match="positions/0/counts/0"):
        perft.load_table(path)


def test_corpus_perft_command_recounts_and_check_sees_a_stale_table(tmp_path):
    result = run_cli("corpus", "perft", "--depth", "1", "--root", CORPUS)
    assert result.returncode == 0, result.stderr
    assert b"every-card-6p perft(1) = 34" in result.stdout
    # a corpus of its own, current, with the checkout's perft table and three of its cases (a
    # check reads and judges every case: the checkout's 800-odd take some 4 s, unread here)
    root = tmp_path / "test-corpus"
    import shutil

    shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns("*.yaml", "*.json"))
    for name in (perft.SOURCE, f"{corpus.SOURCES}/00-valid-actions.yaml"):
        shutil.copy(CORPUS / name, root / name)
    assert run_cli("corpus", "build", "--root", root).returncode == 0
    assert (root / perft.TABLE).read_text(encoding="utf-8") == (CORPUS / perft.TABLE).read_text(encoding="utf-8")
    assert run_cli("corpus", "check", "--root", root).returncode == 0
    table = json.loads((root / perft.TABLE).read_text(encoding="utf-8"))
    table["positions"][0]["counts"][0] = 55
    (root / perft.TABLE).write_text(perft.dump_table(table), encoding="utf-8")
    recounted = run_cli("corpus", "perft", "--depth", "1", "--root", root)
    assert recounted.returncode == 1
    assert b"standard-3p-before-setup: perft(1) is 54, the table says 55" in recounted.stderr
    checked = run_cli("corpus", "check", "--root", root)
    problems = checked.stderr.splitlines()  # (the table alone: the rest is current)
    assert checked.returncode == 1 and len(problems) == 1 and b"perft.json is out of date" in problems[0]


def test_corpus_perft_counts_the_installed_table_outside_a_checkout(tmp_path):
    result = run_cli("corpus", "perft", "--depth", "1", cwd=tmp_path)  # (no sources here: the package's table)
    assert result.returncode == 0 and b"after-setup-4p perft(1) = 11" in result.stdout


def test_corpus_perft_without_a_table_says_so(tmp_path):
    (tmp_path / "src").mkdir()
    result = run_cli("corpus", "perft", "--root", tmp_path)
    assert result.returncode == 2 and result.stderr.startswith(b"sgn corpus: no perft table here (")
