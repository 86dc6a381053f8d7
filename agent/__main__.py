import sys

from bot.console.cli import main

sys.exit(main())
