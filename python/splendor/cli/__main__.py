"""``python -m splendor.cli``: the ``splendor`` command."""

import sys

from splendor.cli import main

sys.exit(main())
