"""`python -m pytest_mobile_agent COMMAND`: the plugin's commands outside a pytest run.

doctor [--devices SPEC]   check every device a run would use, and say what to do
verify BUNDLE [--keep DIR] [--cwd DIR] [-n N]
                          replay a --mobile-bundle archive and say per task whether it is reproduced
"""

from __future__ import annotations

import sys

COMMANDS = {"doctor": "pytest_mobile_agent.doctor", "verify": "pytest_mobile_agent.reporting.verify"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    import importlib

    module = importlib.import_module(COMMANDS[argv[0]])
    return int(module.main(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
