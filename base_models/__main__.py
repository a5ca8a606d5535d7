"""``python -m base_models --model NAME``: prepare a model (the embedded default is converted once) and describe it."""

import sys

from base_models.models import main

if __name__ == "__main__":
    sys.exit(main())
