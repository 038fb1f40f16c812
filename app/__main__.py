import sys

from rulesjudge.app.cli import main

sys.exit(main())
