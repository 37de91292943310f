"""What a cold ``a11y audit`` imports early: the language model's reader starts before Trio
and the engine are imported, and launching a browser over the pipe never imports the websocket
stack. Each case runs in a fresh interpreter, where import order is what a user's run sees."""

from __future__ import annotations

import subprocess
import sys
import threading

from audit import langid_model


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_model_reader_needs_only_the_standard_library():
    done = _fresh(
        "import sys\n"
        "from audit import langid_model\n"
        "langid_model.preload()\n"  # the thread starts; its own imports come later, on it
        "heavy = {'trio', 'cdpdriver', 'pydantic', 'audit.engine'} & set(sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    assert done.returncode == 0, done.stderr


def test_the_driver_and_launch_options_do_not_import_the_websocket_stack():
    done = _fresh(
        "import sys\n"
        "import cdpdriver, audit.launch\n"
        "assert 'trio_websocket' not in sys.modules and 'wsproto' not in sys.modules\n"
    )
    assert done.returncode == 0, done.stderr


def test_one_read_serves_the_language_checks():
    """Preloading twice starts one read, and the checks restrict that same model."""
    langid_model.preload()
    langid_model.preload()
    readers = [t for t in threading.enumerate() if t.name == "a11y-langid-read"]
    assert len(readers) <= 1
    identifier = langid_model.identifier()
    assert langid_model.identifier() is identifier
    from audit.interactive import language_id

    assert set(identifier.nb_classes) == set(language_id.LANGUAGES)


def test_only_the_checks_that_need_the_model_start_its_read():
    """Importing the engine and every check reads nothing (a service whose workers audit never
    pays the read); selecting the language checks for a page starts it, other checks do not."""
    done = _fresh(
        "import threading\n"
        "import audit.engine\n"
        "from audit import interactive, langid_model\n"
        "def reading():\n"
        "    return any(t.name == 'a11y-langid-read' for t in threading.enumerate())\n"
        "assert not reading() and not langid_model.ready()\n"
        "others = [c for c in interactive.INTERACTIVE if 'language' not in c.rule_id]\n"
        "interactive.start_ahead(others)\n"
        "assert not reading() and not langid_model.ready()\n"
        "interactive.start_ahead(interactive.selected('2.2', 'AA'))\n"
        "assert reading() or langid_model.ready()\n"
    )
    assert done.returncode == 0, done.stderr
