"""AutoEval's substate representation and the Checker's rules, without a model."""

from __future__ import annotations

from pytest_mobile_agent.judges.autoeval import decomposer_rates, describe_hierarchy, parse_reasoner
from pytest_mobile_agent.judges.ssr import Checker, parse

CLOCK = """0. PageNode(content="Clock app main page is visible", parent_id=None)
1. PageNode(content="Alarm page is visible", parent_id=0)
2. UnitNode(content="Alarm set for 3:00 PM is visible", parent_id=1)
3. UnitNode(content="Alarm label is set to 'meeting'", parent_id=1)"""


def test_parse_reads_both_serializations():
    nodes, unreadable = parse(CLOCK)
    assert [(n.id, n.kind, n.parent) for n in nodes] == [
        (0, "PageNode", None),
        (1, "PageNode", 0),
        (2, "UnitNode", 1),
        (3, "UnitNode", 1),
    ]
    assert unreadable == 0 and all(n.invalid is None for n in nodes)
    again, _ = parse("\n".join(n.line() for n in nodes))
    assert [n.content for n in again] == [n.content for n in nodes]


def test_rule_breaking_nodes_are_marked_invalid():
    nodes, unreadable = parse(
        '0. PageNode(content="a", parent_id=None)\n'
        '1. UnitNode(content="b", parent_id=None)\n'
        '2. UnitNode(content="c", parent_id=1)\n'
        '4. PageNode(content="d", parent_id=0)\n'
        "5. PageNode(content=broken)"
    )
    assert nodes[0].invalid is None
    assert "PageNode as parent" in nodes[1].invalid
    assert "not an earlier PageNode" in nodes[2].invalid
    assert "id 4 where 3" in nodes[3].invalid
    assert unreadable == 1


def test_checker_rejects_labels_other_than_true_and_uncertain_and_wrong_counts():
    nodes, _ = parse(CLOCK)
    checker = Checker(nodes)
    judged = checker.pending()
    assert "not ['false']" in checker.check(judged, ["true", "false", "uncertain", "uncertain"])
    assert "expected 4 states" in checker.check(judged, ["true"])
    assert checker.check(judged, ["true", "uncertain", "uncertain", "uncertain"]) is None


def test_a_unit_needs_its_page_judged_success_in_the_same_round():
    nodes, _ = parse(CLOCK)
    checker = Checker(nodes)
    judged = checker.pending()
    assert "without their PageNode" in checker.check(judged, ["true", "uncertain", "true", "uncertain"])
    checker.apply(judged, ["true", "true", "uncertain", "uncertain"])
    # Units 2 and 3 still pending: their page 1 is judged again with them, though already a success.
    assert [n.id for n in checker.pending()] == [1, 2, 3]


def test_success_is_sticky_and_scr_tcr_follow():
    nodes, _ = parse(CLOCK)
    checker = Checker(nodes)
    checker.apply(checker.pending(), ["true", "true", "true", "uncertain"])
    assert checker.scr == 0.75 and not checker.complete
    checker.apply(checker.pending(), ["uncertain", "true"])  # page 1 not seen again: unit 3 is not checkable
    assert checker.success == {0, 1, 2}
    judged = checker.pending()
    checker.apply(judged, ["true", "true"])
    assert checker.complete and checker.scr == 1.0


def test_invalid_nodes_never_succeed_and_count_in_scr():
    nodes, _ = parse('0. PageNode(content="a", parent_id=None)\n1. UnitNode(content="b", parent_id=None)')
    checker = Checker(nodes)
    assert [n.id for n in checker.pending()] == [0]
    checker.apply(checker.pending(), ["true"])
    assert checker.scr == 0.5 and not checker.complete


def test_reasoner_answers_are_read_from_fenced_json_or_refused():
    assert parse_reasoner('```json\n{"states": ["true"]}\n```')["states"] == ["true"]
    assert parse_reasoner("I think it is done") is None
    assert parse_reasoner("{not json}") is None


def test_decomposer_rates_against_reference_substates():
    generated, _ = parse(
        '0. PageNode(content="Clock app main page is visible", parent_id=None)\n'
        '1. PageNode(content="Alarm page is visible", parent_id=0)\n'
        '2. PageNode(content="Alarm tab is visible", parent_id=0)\n'
        '3. UnitNode(content="Alarm at 3:00 PM is listed", parent_id=1)\n'
        '4. UnitNode(content="Bedtime page shows sleep sounds", parent_id=2)\n'
        '5. UnitNode(content="x", parent_id=None)'
    )
    reference = [
        'PageNode(content="Clock app is open", parent_id=None)',
        "Alarm page is visible",
        "Alarm at 3:00 PM is listed",
        "Alarm label is 'meeting'",
    ]
    rates = decomposer_rates(generated, reference)
    assert rates == {"reference": 4, "generated": 6, "covered": 3, "redundant": 1, "optional": 1, "incorrect": 1}


def test_the_hierarchy_capturer_names_the_app_and_each_element_with_its_state():
    xml = (
        '<hierarchy><node package="com.x" class="android.widget.FrameLayout" text="" content-desc="" '
        'bounds="[0,0][100,100]"><node package="com.x" class="android.widget.Switch" text="Dark theme" '
        'checkable="true" checked="true" enabled="true" content-desc="" bounds="[0,0][100,50]"/></node></hierarchy>'
    )
    text = describe_hierarchy(xml)
    assert text.splitlines()[0] == "App package: com.x"
    assert 'Switch text "Dark theme" (checked)' in text
