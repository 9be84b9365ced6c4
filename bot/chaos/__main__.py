"""`python -m bot.chaos`: see `bot/chaos/__init__.py`."""

import sys

from bot.chaos.run import main

sys.exit(main())
