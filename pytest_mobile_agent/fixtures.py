"""Fixtures: `device` (leased, then reset), `ui`, `events`, `agent`, and the session plumbing.

Override them like any fixture in your conftest.py; e.g. a task suite's precondition fixtures
take `device` and seed data through adb-level means (content providers, pushed files).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from pytest_mobile_agent.agents import Agent
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.errors import DeviceLost
from pytest_mobile_agent.events.log import EventLog
from pytest_mobile_agent.session import RESET_KEY, mobile_session
from pytest_mobile_agent.tasks import TASK_KEY

if TYPE_CHECKING:  # the device modules load with the first device, not with the plugin
    from pytest_mobile_agent.changes import Changes
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.pool import DevicePool
    from pytest_mobile_agent.device.reset import DeviceResets
    from pytest_mobile_agent.models import ChatClient


@pytest.fixture(scope="session")
def mobile_pool(pytestconfig: pytest.Config) -> Iterator[DevicePool]:
    """This process's device lease (one per xdist worker)."""
    pool = mobile_session(pytestconfig).take_pool()
    yield pool
    pool.close_streams()
    pool.release()


@pytest.fixture(scope="session")
def mobile_resets(pytestconfig: pytest.Config) -> Iterator[DeviceResets]:
    """How each leased device is reset (`--mobile-reset`): its base snapshot, or clear-and-clean."""
    from pytest_mobile_agent.device.reset import DeviceResets

    resets = DeviceResets(mobile_session(pytestconfig).options.reset)
    yield resets
    resets.close()


@pytest.fixture(scope="session")
def mobile_model(pytestconfig: pytest.Config) -> ChatClient:
    """The chat client the --mobile-model* options describe (a model-based agent or judge of your own)."""
    return mobile_session(pytestconfig).model_client("the mobile_model fixture")


@pytest.fixture(scope="session")
def agent(pytestconfig: pytest.Config) -> Agent:
    """The agent under test, from --agent."""
    return mobile_session(pytestconfig).get_agent()


@pytest.fixture
def device(request: pytest.FixtureRequest, mobile_pool: DevicePool, mobile_resets: DeviceResets) -> AndroidDevice:
    """The leased device, reset for the task (`--mobile-reset`: the device's base snapshot, taken
    once after boot and the listener set-up, or HOME, force-stop and `pm clear` of the task's
    apps), the task's permission grants, then `pytest_mobile_agent_reset` hooks. The app is
    launched when the episode starts, after the task's precondition fixtures have seeded data."""
    dev = mobile_pool.lease()
    mobile_resets.forget_lost(mobile_pool.lost)
    task = request.node.stash.get(TASK_KEY, None)
    start = time.perf_counter()
    try:
        label = task and ("online task" if task.spec.online else task.spec.skip_missing)
        if label:
            missing = dev.missing_packages(task.apps)
            if missing:
                pytest.skip(f"{label}: {', '.join(missing)} is not installed on {dev.serial}")
        if task is not None:
            mobile_resets.reset(dev, list(task.apps), list(task.spec.grants), lambda: mobile_pool.event_stream(dev))
            mobile_pool.restore_stream(dev)
            options = mobile_session(request.config).options
            dev.set_locale(options.locale_for(task.spec))
            dev.set_display(options.display)
            dev.set_font_scale(options.font_scale)
            dev.set_night(options.night)
            request.config.hook.pytest_mobile_agent_reset(device=dev, task=task)
            mobile_pool.confirm_lease()
        else:
            dev.sh("input keyevent HOME")
    except DeviceLost:
        mobile_resets.forget(dev.serial)
        mobile_pool.give_up()
        raise
    request.node.stash[RESET_KEY] = time.perf_counter() - start
    return dev


@pytest.fixture
def mobile_device(device: AndroidDevice) -> AndroidDevice:
    """Alias of `device`, for suites that also use pytest-playwright (which owns `device`)."""
    return device


@pytest.fixture
def ui(device: AndroidDevice, request: pytest.FixtureRequest) -> UiTree:
    """The screen as a queryable model; during an episode the harness refreshes it each step."""
    if request.node.stash.get(TASK_KEY, None) is not None:
        return UiTree(locale=device.locale)  # the body's queries match texts in the device's locale
    return device.ui()


@pytest.fixture
def events(device: AndroidDevice, mobile_pool: DevicePool) -> EventLog:
    """Accessibility events since the reset (the episode marks its own start again)."""
    stream = mobile_pool.event_stream(device)
    # The barrier opens an adb connection: on a dead device, a DeviceLost rather than a raw AdbError.
    log = EventLog(lambda: stream.events, lost_on_error(stream.sync, device.serial))
    log.locale = device.locale
    log.mark()
    return log


@pytest.fixture
def changes(device: AndroidDevice) -> Changes:
    """The durable change since the agent started (contacts, SMS, files, app data, packages):
    see pytest_mobile_agent/changes.py. Every change the body reads through it is declared; the
    plugin fails the task on any other."""
    from pytest_mobile_agent.changes import Changes

    return Changes(device)


@pytest.fixture
def mobile_near_miss(request: pytest.FixtureRequest) -> str | None:
    """The near miss this item runs under --agent=near-miss (its label), else None."""
    return getattr(request, "param", None)


@pytest.fixture
def mobile_repeat(request: pytest.FixtureRequest) -> int | None:
    """Which of a task's --mobile-repeat=K runs this item is (1..K), else None."""
    return getattr(request, "param", None)


@pytest.fixture
def mobile_variation(request: pytest.FixtureRequest) -> int | None:
    """The drawn variation this item runs under --mobile-variations=N (1..N), else None."""
    return getattr(request, "param", None)


def lost_on_error(fn: Callable[[], object], serial: str) -> Callable[[], object]:
    """Wrap an adb-level call (the event stream's barrier) so that a raw adb or socket error
    surfaces as DeviceLost, as the device's own calls do."""
    from adbutils import AdbError

    def call() -> object:
        try:
            return fn()
        except (AdbError, OSError) as exc:
            raise DeviceLost(f"device {serial} lost during an event-stream barrier: {exc}") from exc

    return call
