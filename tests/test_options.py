"""The device configuration options' values: --mobile-font-scale and --mobile-night are read as
`settings put system font_scale` and `cmd uimode night` take them, anything else is a usage
error naming the option and what it expects (the run stops before any task)."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.options import Options, parse_font_scale, parse_night


@pytest.mark.parametrize("spec, value", [(None, None), ("", None), ("1.3", 1.3), (" 0.85 ", 0.85), ("2", 2.0)])
def test_a_font_scale_is_a_number(spec, value):
    assert parse_font_scale(spec) == value


@pytest.mark.parametrize("spec, value", [(None, None), ("yes", "yes"), ("NO", "no"), (" yes ", "yes")])
def test_night_is_yes_or_no(spec, value):
    assert parse_night(spec) == value


@pytest.mark.parametrize(
    "parse, spec, message",
    [
        (parse_font_scale, "big", "--mobile-font-scale='big': expected a number, e.g. 1.3"),
        (parse_font_scale, "9", "--mobile-font-scale='9': a font scale is 0.5 to 3.0 (1.0: the default size)"),
        (parse_night, "dark", "--mobile-night='dark': expected yes (dark theme) or no (light theme)"),
        (parse_night, "auto", "--mobile-night='auto': expected yes (dark theme) or no (light theme)"),
    ],
)
def test_a_value_that_is_none_is_a_usage_error(parse, spec, message):
    with pytest.raises(pytest.UsageError) as error:
        parse(spec)
    assert str(error.value) == message


def options(**asked: object) -> Options:
    return Options(None, None, "virtual", 2.0, None, 3, None, None, None, 0, 0, (), True, **asked)  # type: ignore[arg-type]


def test_the_header_says_what_the_run_sets():
    asked = options(display=(720, 1600, 320), font_scale=1.3, night="yes")
    assert asked.configuration() == "display 720x1600@320, font scale 1.3, night yes"
    assert options(display=(1080, 1920, None)).configuration() == "display 1080x1920"
    assert options().configuration() == ""
