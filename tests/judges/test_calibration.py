"""The calibration arithmetic: a judge's confusion against the body, and the printed table."""

from __future__ import annotations

from pytest_mobile_agent.judges.calibration import Confusion, calibrate, disagrees, table


def _record(body, **verdicts):
    verdict = {"cost_usd": 0.01, "tokens_in": 10, "tokens_out": 2}
    return {
        "body_success": body,
        "infrastructure": False,
        "judges": {n: {"passed": v, **verdict} for n, v in verdicts.items()},
    }


def test_precision_recall_f1_accuracy_from_counts():
    records = (
        [_record(True, j=True)] * 6
        + [_record(True, j=False)] * 2
        + [_record(False, j=True)] * 1
        + [_record(False, j=False)] * 3
        + [_record(False, j=None)]
    )
    c = calibrate(records)["j"]
    assert (c.tp, c.fn, c.fp, c.tn, c.abstained) == (6, 2, 1, 3, 1)
    assert c.precision == 6 / 7 and c.recall == 6 / 8
    assert abs(c.f1 - 2 * (6 / 7) * (6 / 8) / (6 / 7 + 6 / 8)) < 1e-12
    assert c.accuracy == 9 / 12
    assert abs(c.cost_usd - 0.13) < 1e-9 and c.tokens_in == 130


def test_records_without_a_body_verdict_or_from_infrastructure_errors_are_left_out():
    records = [_record(None, j=True), {**_record(True, j=False), "infrastructure": True}, _record(True, j=True)]
    assert calibrate(records)["j"].decided == 1


def test_undefined_ratios_are_none_not_zero():
    c = Confusion(tn=4)
    assert c.precision is None and c.recall is None and c.f1 is None and c.accuracy == 1.0
    assert Confusion(fp=1, fn=1).f1 == 0.0


def test_disagreements_name_the_judges_that_differ_from_the_body():
    assert disagrees(_record(True, a=True, b=False, c=None)) == ["b"]
    assert disagrees(_record(None, a=True)) == []


def test_the_table_has_a_row_per_judge_with_its_figures():
    lines = table(calibrate([_record(True, a=True), _record(False, a=True), _record(True, b=False)]))
    assert lines[0].split()[:4] == ["judge", "N", "TP", "FP"]
    row_a = lines[2].split()
    assert row_a[:7] == ["a", "2", "1", "1", "0", "0", "0"] and row_a[7:11] == ["0.500", "1.000", "0.667", "0.500"]
    assert lines[3].split()[7:10] == ["-", "0.000", "-"]
