"""python-for-android recipe: fastmine, its Cython kernels built for the device.

buildozer finds it through ``p4a.local_recipes = ./recipes`` in
``buildozer.spec``; the requirement ``fastmine`` there selects it.  There is
nothing to download: the source is this checkout.  The build runs the
project's own ``setup.py build_ext`` with p4a's cross-compiling environment
(see ``steps.py``, which the tests run for the host with the same commands),
against the target Python's headers and library and the target NumPy's
headers, then copies the package into the app's site-packages.

It is rebuilt when the sources change (a hash of every build input is kept
next to the installed package), so ``buildozer android debug`` after an
edit to ``src/`` ships the new kernels without a ``clean``.
"""

from __future__ import annotations

import importlib.util
import shutil
from multiprocessing import cpu_count
from os.path import dirname, join
from pathlib import Path

import sh
from pythonforandroid.logger import info, shprint
from pythonforandroid.recipe import PythonRecipe, Recipe
from pythonforandroid.util import ensure_dir


def _load_steps():
    # p4a loads this file as a module without a package, so a relative
    # import of the sibling module cannot work: load it by path.
    spec = importlib.util.spec_from_file_location("fastmine_p4a_steps", join(dirname(__file__), "steps.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


steps = _load_steps()
DIGEST_FILE = ".p4a-source-digest"


class FastmineRecipe(PythonRecipe):
    """Build fastmine (engine, solver, the app's package) from this checkout for each arch."""

    name = "fastmine"
    version = steps.project_version(steps.project_root())
    url = None  # the source is the checkout this recipe ships with
    depends = ["python3", "numpy"]
    site_packages_name = "fastmine"
    call_hostpython_via_targetpython = False  # target Python headers/library come from CFLAGS/LDFLAGS
    # what setup.py imports on the build machine (pyproject.toml's build-system.requires)
    hostpython_prerequisites = ["setuptools>=77", "Cython>=3.1", "numpy>=2"]

    def prepare_build_dir(self, arch):
        # p4a passes the arch's name here (an Arch object everywhere else)
        steps.copy_sources(steps.project_root(), Path(self.get_build_dir(arch)))

    def should_build(self, arch):
        installed = Path(self.ctx.get_python_install_dir(arch.arch)) / "fastmine" / DIGEST_FILE
        want = steps.source_digest(steps.project_root())
        return not installed.is_file() or installed.read_text().strip() != want

    def get_recipe_env(self, arch=None, with_flags_in_cc=True):
        env = super().get_recipe_env(arch, with_flags_in_cc)
        # the target NumPy's headers first, -O3 back, the cross compiler to link
        return steps.cross_env(env, Recipe.get_recipe("numpy", self.ctx).get_include(arch))

    def build_arch(self, arch):
        self.install_hostpython_prerequisites()
        env = self.get_recipe_env(arch)
        build_dir = Path(self.get_build_dir(arch.arch))
        stage = build_dir.parent / f"{build_dir.name}-stage"
        info(f"fastmine: building the kernels for {arch.arch}")
        steps.build(build_dir, stage, python=self.real_hostpython_location, env=env, jobs=cpu_count())
        package = stage / "fastmine"
        if not self.ctx.with_debug_symbols:
            strip = env["STRIP"].split(" ")[0]
            for so in package.rglob("*.so"):
                shprint(sh.Command(strip), "--strip-unneeded", str(so), _env=env)
        site = Path(self.ctx.get_python_install_dir(arch.arch))
        ensure_dir(str(site))
        for old in [site / "fastmine", *site.glob("fastmine-*.dist-info")]:
            shutil.rmtree(old, ignore_errors=True)
        for item in stage.iterdir():
            shutil.copytree(item, site / item.name)
        (site / "fastmine" / DIGEST_FILE).write_text(steps.source_digest(steps.project_root()))
        info(f"fastmine: installed {', '.join(steps.built_kernels(site / 'fastmine'))}")


recipe = FastmineRecipe()
