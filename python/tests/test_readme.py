"""The README's Python example, run as printed: it prints the test AUC the README says."""

import os
import re
import subprocess
import sys

from conftest import REPO


def test_readme_example():
    text = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    section = text[text.index("## Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) == 5
    want = re.search(r"prints `([^`]*)`", section).group(1)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=os.environ).stdout
    assert out.strip() == want
