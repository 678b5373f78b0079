"""The docs site: every command-line option the plugin registers appears in it, and the
reference pages are rendered from the code (scripts/docs_reference.py, mkdocs' hook)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def reference_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_reference", REPO / "scripts" / "docs_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rendered_docs() -> str:
    hook = reference_hook()
    return "\n".join(hook.render(page.read_text()) for page in sorted(DOCS.rglob("*.md")))


def test_every_option_pytest_knows_appears_in_the_docs(pytestconfig: pytest.Config) -> None:
    # The options of the running session, as pytest registered them: an option added anywhere
    # but the plugin's own table (another group, another hook) would be missing from the docs.
    parser = pytestconfig._parser
    flags = [
        name
        for group in parser._groups
        if group.name == "mobile-agent"
        for option in group.options
        for name in option.names()
    ]
    assert "--agent" in flags and "--mobile-judge" in flags
    text = rendered_docs()
    missing = [flag for flag in flags if not re.search(rf"`{re.escape(flag)}`", text)]
    assert not missing, f"options not in the docs: {missing}"
    inis = [name for name in parser._inidict if name.startswith("mobile_")]
    assert [name for name in inis if f"`{name}`" not in text] == []


def test_reference_markers_are_all_known() -> None:
    hook = reference_hook()
    for page in DOCS.rglob("*.md"):
        rendered = hook.render(page.read_text())
        assert "<!-- reference:" not in rendered, page


def test_an_unknown_marker_fails_the_build() -> None:
    with pytest.raises(LookupError, match="unknown reference section 'optoins'"):
        reference_hook().render("<!-- reference:optoins -->")


def test_a_results_field_without_a_description_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = reference_hook()
    monkeypatch.setattr(hook, "record_keys", lambda: [*hook.RECORD_FIELDS, "brand_new_field"])
    with pytest.raises(LookupError, match="brand_new_field"):
        hook.results()


def test_every_page_in_the_nav_that_exists_is_linked() -> None:
    nav = (REPO / "mkdocs.yml").read_text()
    for page in DOCS.rglob("*.md"):
        assert page.relative_to(DOCS).as_posix() in nav, f"{page} is not in mkdocs.yml's nav"
