"""The Python examples of the README and the guides in docs/ run as shown
(each block in a fresh namespace, from the repository's root, as a reader
would paste it), and the package's API is documented where `help()` looks."""

import inspect
import re
from pathlib import Path

import pytest

import ttr_opt
import ttr_opt.distributed

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
            line = text[: m.start()].count("\n") + 2
            yield pytest.param(m.group(1), id=f"{page.relative_to(ROOT)}:{line}")


BLOCKS = list(python_blocks())


def test_the_guides_have_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS)
def test_example_runs(code, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})


@pytest.mark.parametrize("module", [ttr_opt, ttr_opt.distributed])
def test_every_public_call_has_a_docstring(module):
    assert inspect.getdoc(module)
    for name in module.__all__:
        doc = inspect.getdoc(getattr(module, name))
        assert doc and len(doc) > 40, f"{module.__name__}.{name} has no docstring"
