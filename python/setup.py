"""Build of the aucopt Python package: the build step compiles the engine's C ABI
(../capi) into aucopt/libaucopt.so with the local Go toolchain:

    go build -buildmode=c-shared -o aucopt/libaucopt.so ./capi

With $AUCOPT_LIB set, no library is built: the package loads that one at run time.
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


class BuildWithGo(build_py):
    """build_py, then the shared library into the build's aucopt/ directory."""

    def run(self):
        super().run()
        if os.environ.get("AUCOPT_LIB"):
            return
        if not os.path.exists(os.path.join(REPO, "go.mod")) or not os.path.isdir(os.path.join(REPO, "capi")):
            raise SystemExit(f"aucopt: no Go module with capi/ at {REPO}: build from a clone of the repository, "
                             "or set AUCOPT_LIB to a libaucopt.so")
        go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)
        if go is None:
            raise SystemExit("aucopt: the build needs the Go toolchain (go on PATH or /usr/local/go/bin/go)")
        out = os.path.join(os.path.abspath(self.build_lib), "aucopt", "libaucopt.so")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="1")
        subprocess.check_call([go, "build", "-trimpath", "-buildmode=c-shared", "-o", out, "./capi"], cwd=REPO, env=env)
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


class BinaryDistribution(Distribution):
    """The wheel holds a shared library: a platform wheel."""

    def has_ext_modules(self):
        return True


setup(
    name="aucopt",
    version="0.1.0.dev0",
    description="AUC-maximising linear learners (the aucopt engine) as scikit-learn estimators",
    packages=["aucopt"],
    python_requires=">=3.9",
    install_requires=["numpy", "scipy", "scikit-learn"],
    cmdclass={"build_py": BuildWithGo},
    distclass=BinaryDistribution,
    zip_safe=False,
)
