"""How audit browsers are launched (:mod:`audit.launch`)."""

from __future__ import annotations

from audit.launch import audit_launch_options
from cdpdriver import LaunchOptions
from cdpdriver.launcher import SPARE_RENDERER_FEATURE, chromium_command


def test_audit_browsers_run_without_the_spare_renderer(tmp_path):
    argv = chromium_command("chromium", audit_launch_options(), tmp_path)
    features = [arg for arg in argv if arg.startswith("--disable-features=")]
    assert len(features) == 1  # Chromium reads only one of them
    assert SPARE_RENDERER_FEATURE in features[0].split("=", 1)[1].split(",")
    assert "Translate" in features[0]
    assert SPARE_RENDERER_FEATURE not in " ".join(chromium_command("chromium", LaunchOptions(), tmp_path))
