#!/usr/bin/env python
"""Django's command-line utility for Context Layer."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    os.environ["MEM0_TELEMETRY"] = "False"
    from contextlayer.commandline import main as run

    run(sys.argv)


if __name__ == "__main__":
    main()
