"""The pictures of docs/pictures.md and docs/format.md are what `sgn render` draws now
(docs/make_pictures.py)."""

import importlib.util
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
spec = importlib.util.spec_from_file_location("make_pictures", DOCS / "make_pictures.py")
make_pictures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_pictures)


@pytest.mark.parametrize("name,example,args,page", make_pictures.PICTURES)
def test_a_picture_of_the_docs_is_drawn_by_the_tool(name, example, args, page):
    committed = (DOCS / "pictures" / name).read_text(encoding="utf-8")
    assert committed == make_pictures.draw(example, args), (
        f"docs/pictures/{name} is stale: run python docs/make_pictures.py"
    )
    assert f"pictures/{name}" in (DOCS / page).read_text(encoding="utf-8")
