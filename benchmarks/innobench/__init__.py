# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""innobench: run stock and fork MySQL side by side and report ratios."""
