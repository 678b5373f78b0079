"""Near misses by family (task_suites/shared/near_misses.py): every label that names a family
names a known one, and the validity page's table is the tally of the suites as they are."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mobile_agent.tasks import spec_of
from task_suites.shared.near_misses import FAMILIES, ONE_APP, OTHER, family_of, labelled, not_applicable, reasons_of

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "near_miss_families.py"
sys.path.insert(0, str(SCRIPT.parent))
import near_miss_families  # noqa: E402


def test_a_label_names_its_family_and_only_a_known_one():
    assert family_of(labelled("multiset", "sent twice")) == "multiset"
    assert family_of("a typo") == OTHER
    assert family_of("the goal: and more") == OTHER
    with pytest.raises(ValueError, match="unknown near-miss family 'fields'"):
        labelled("fields", "starred")


def test_a_family_said_not_to_apply_names_a_known_family_and_why():
    @not_applicable(multiset="one setting, one value")
    @not_applicable(allowance="no allowance")
    def body():
        pass

    assert reasons_of(body, ("app",), launch=False) == {
        "multiset": "one setting, one value",
        "allowance": "no allowance",
    }
    assert reasons_of(body, ("app",), launch=True)["route"] == ONE_APP  # started in its one app
    assert "route" not in reasons_of(body, ("a", "b"), launch=True)
    with pytest.raises(ValueError, match="unknown near-miss family 'sets'"):
        not_applicable(sets="no list")
    with pytest.raises(ValueError, match="say why"):
        not_applicable(field=" ")


@pytest.mark.parametrize("folder", sorted(near_miss_families.SUITES.values()))
def test_every_task_s_families_are_covered_or_said_not_to_apply(folder):
    """Each family has near misses, or the task says why it cannot apply (not_applicable)."""
    gaps = near_miss_families.missing(folder)
    assert not gaps, f"families neither covered nor said not to apply: {gaps}"


def test_the_script_lists_each_task_s_families_with_counts_reasons_or_missing():
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--tasks"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    block = out.split("mb_mamt_event_and_text:\n")[1].split("\nmb_")[0]
    assert "  field: 2 near miss(es)" in block and "  multiset: 2 near miss(es)" in block, block
    assert "  route: two parts only their own apps can do" in block, block
    spa = out.split("calendar_1_2_CHN:\n")[1].split("\ncalendar_1_3")[0]  # a set's reasons reach each level
    assert "  multiset: one stored setting a level" in spa and "  route: one app, started by" in spa, spa
    assert "MobileAgentBench: " in out and "task(s) with a family neither covered nor said not to apply" in out


def test_no_label_looks_like_a_family_it_is_not():
    """A label "word: ..." whose word is no family is a typo that would count as other."""
    wrong = []
    for folder in near_miss_families.SUITES.values():
        for fn in near_miss_families.task_functions(folder):
            spec = spec_of(fn)
            assert spec is not None
            for label in spec.near_misses():
                head, sep, _ = label.partition(": ")
                if sep and " " not in head and head not in FAMILIES:
                    wrong.append((spec.name, label))
    assert not wrong, f"labels naming no known family: {wrong}"


def test_every_family_has_near_misses_in_the_suites_it_applies_to():
    rows = near_miss_families.tally()
    spa = [counts for row, counts in rows.items() if row.startswith("SPA-Bench")]
    assert len(spa) == 2, rows
    for counts in spa:  # both languages; the only suite with cross-app tasks of SPA-Bench's shape
        assert all(counts[f] > 0 for f in FAMILIES), counts
    for suite in ("MobileAgentBench", "Mobile-Bench-style"):
        assert all(rows[suite][f] > 0 for f in ("field", "multiset")), rows[suite]


def test_the_validity_page_holds_the_current_tally():
    out = subprocess.run([sys.executable, str(SCRIPT)], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    page = (ROOT / "docs" / "explanation" / "validity.md").read_text()
    assert out.strip() in page, f"docs/explanation/validity.md: replace the table with\n{out}"
