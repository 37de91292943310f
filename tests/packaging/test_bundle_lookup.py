"""Where the axe-core bundle is looked for: the override, inside the package, the checkout."""

from __future__ import annotations

import shutil

import pytest

from audit import axe_bundle


def test_a_checkout_uses_its_vendor_directory_and_names_its_script():
    assert axe_bundle.in_checkout()
    assert axe_bundle.find_bundle() == axe_bundle.CHECKOUT / "vendor" / "axe" / "axe.min.js"
    assert "scripts/install.sh" in axe_bundle.remedy()


def test_the_packaged_bundle_comes_before_the_checkout():
    candidates = axe_bundle._candidates()
    assert candidates.index(axe_bundle.PACKAGED_BUNDLE) < len(candidates) - 1
    assert axe_bundle.PACKAGED_BUNDLE.parent.parent.parent == axe_bundle.CHECKOUT / "src" / "audit"


def test_the_override_wins_and_a_wrong_one_is_an_error(tmp_path, monkeypatch):
    copy = tmp_path / "axe.min.js"
    shutil.copyfile(axe_bundle.find_bundle(), copy)
    monkeypatch.setenv("A11Y_AXE_PATH", str(copy))
    assert axe_bundle.find_bundle() == copy
    monkeypatch.setenv("A11Y_AXE_PATH", str(tmp_path / "absent.js"))
    with pytest.raises(axe_bundle.AxeBundleMissing, match="A11Y_AXE_PATH"):
        axe_bundle.find_bundle()
