"""``a11y token create|list|revoke``: made and revoked by real processes on a data directory,
with a service on the same store seeing each change on its next request; listed, and
refused, in process (the same ``main``); and the options argparse refuses."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import trio

from a11y.cli import build_parser, main
from tests.service.conftest import assert_error, client_for, service_for

ROOT = Path(__file__).resolve().parents[2]
SITE = "https://shop.example"


async def _token_cli(*argv: str) -> trio.Process:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("A11Y_API_TOKEN", None)
    return await trio.run_process([sys.executable, "-m", "a11y", "token", *argv], env=env,
                                  capture_stdout=True, capture_stderr=True, check=False)


async def test_a_token_made_and_revoked_by_the_cli_works_on_the_service_at_once(chromium, tmp_path):
    store = ["--data-dir", str(tmp_path / "data")]
    made = await _token_cli("create", "--name", "ci", "--scope", "submit",
                            "--site", "HTTPS://Shop.Example:443/", *store)
    assert made.returncode == 0, made.stderr.decode()
    value = made.stdout.decode().strip()
    assert value.startswith("a11y_") and "\n" not in value
    assert value not in made.stderr.decode()
    async with service_for(chromium, data_dir=str(tmp_path / "data"), workers=0) as svc, \
            client_for(svc) as client:
        bearer = {"Authorization": f"Bearer {value}"}
        me = await client.get("/auth/self", headers=bearer)
        assert me.json() == {"name": "ci", "scope": "submit", "sites": [SITE]}
        assert_error(await client.get("/auth/self"), 401, "unauthorized")

        revoked = await _token_cli("revoke", "ci", *store)
        assert revoked.returncode == 0, revoked.stderr.decode()
        assert_error(await client.get("/auth/self", headers=bearer), 401, "unauthorized")


def test_the_list_never_shows_a_value_and_refusals_are_clear_errors(tmp_path, capsys):
    store = ["--data-dir", str(tmp_path / "data")]
    assert main(["token", "create", "--name", "ci", "--scope", "submit", "--site", SITE, *store]) == 0
    assert main(["token", "create", "--name", "viewer", "--scope", "read", *store]) == 0
    values = capsys.readouterr().out.split()
    assert main(["token", "revoke", "viewer", *store]) == 0
    assert main(["token", "list", *store]) == 0
    out, err = capsys.readouterr()
    header, ci, viewer = out.splitlines()
    assert header.split() == ["NAME", "SCOPE", "SITES", "CREATED", "REVOKED"]
    assert ci.split()[:3] == ["ci", "submit", SITE] and ci.split()[4] == "-"
    assert viewer.split()[:3] == ["viewer", "read", "*"] and viewer.split()[4] != "-"
    assert main(["token", "create", "--name", "viewer", "--scope", "admin", *store]) == 1
    assert main(["token", "revoke", "nobody", *store]) == 1
    out, more = capsys.readouterr()
    assert out == "" and "Traceback" not in err + more
    assert not [value for value in values if value in err + more]
    assert "a token named 'viewer' exists already" in more and "no token named 'nobody'" in more


@pytest.mark.parametrize("argv, complaint", [
    (["--name", "ci", "--scope", "write"], "argument --scope: invalid choice"),
    (["--name", "has space", "--scope", "read"], "argument --name: a token name is"),
    (["--name", "ci", "--scope", "read", "--site", "ftp://shop.example"], "argument --site: Must be an http(s) origin"),
    (["--name", "ci", "--scope", "read", "--site", "https://shop.example/path"], "argument --site: Must be an http(s) origin"),
    (["--scope", "read"], "the following arguments are required: --name"),
])
def test_bad_options_are_argparse_errors(argv, complaint, capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["token", "create", *argv])
    assert exited.value.code == 2
    assert complaint in capsys.readouterr().err


def test_sites_are_normalised_as_runs_store_them():
    args = build_parser().parse_args(["token", "create", "--name", "ci", "--scope", "admin",
                                      "--site", "HTTP://A.test:80", "--site", "https://[::1]:8443/"])
    assert args.sites == ["http://a.test", "https://[::1]:8443"]
    assert args.data_dir == "./a11y-data/" and args.database is None
